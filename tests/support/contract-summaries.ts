// Summaries written out from contract §8, for tests that need a correct host's answer as a
// literal. Each call returns a fresh copy, so a test may mutate what it gets.

/** The mean fixture: both trials score 1 and hit a forbidden tool, so the gated mean is 0. */
export function meanGatedSummary() {
  return {
    suiteId: 'conformance.evals.trajectory-gate-mean',
    suiteVersion: '1.0.0',
    aggregateScore: 1,
    gatedAggregateScore: 0,
    passed: false,
    taskCount: 1,
    passedCount: 0,
    tasks: [
      {
        taskId: 'forbidden-in-every-trial',
        score: 1,
        gatedScore: 0,
        passed: false,
        trials: {
          count: 2,
          passRule: 'mean',
          meanScore: 1,
          passAtK: 0,
          passHatK: 0,
          trialStats: { passed: 0, trajectoryFailed: 2, failedClosed: 0, minScore: 1, maxScore: 1 },
        },
      },
    ],
  };
}
