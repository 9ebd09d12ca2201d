// The conforming reference host on every shipped fixture: contract §8's numbers and §7's
// event log, for the plain wire shape and for the varied one.

import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceHost, type ReferenceHost } from '../../reference-host/index.ts';
import {
  drive,
  evalPayloads,
  FIXTURE_IDS,
  type Body,
  type FixtureId,
  type WireEvent,
} from './harness.ts';
import { meanGatedSummary } from '../support/contract-summaries.ts';
import { derivedGrading, type DerivedGrading } from './derived-grading.ts';

let host: ReferenceHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/**
 * A reading fixture: one trial per task and every output golden (score 1), so a task's gating
 * score is 1 exactly when its path matched. Each task is [taskId, gatedScore, calls made].
 */
function reading(
  slug: string,
  suite: { readonly gatedAggregateScore: number; readonly passed: boolean },
  tasks: readonly (readonly [string, 0 | 1, number])[],
): { summary: Body; scored: [number, boolean][]; log: string } {
  return {
    summary: {
      suiteId: `conformance.evals.trajectory-readings-${slug}`,
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      ...suite,
      taskCount: tasks.length,
      passedCount: tasks.filter(([, gated]) => gated === 1).length,
      tasks: tasks.map(([taskId, gated]) => ({
        taskId,
        score: 1,
        gatedScore: gated,
        passed: gated === 1,
      })),
    },
    scored: tasks.map(([, gated]) => [1, gated === 1]),
    log: `S ${tasks.map(([, , calls]) => `i${'cr'.repeat(calls)}des`).join(' ')} C R`,
  };
}

/** A task's trials block when both of its trials score 1 and match, under rule mean. */
const TWO_CLEAN_TRIALS = {
  count: 2,
  passRule: 'mean',
  meanScore: 1,
  passAtK: 1,
  passHatK: 1,
  trialStats: { passed: 2, trajectoryFailed: 0, failedClosed: 0, minScore: 1, maxScore: 1 },
};

/**
 * Contract §8, written out for the fixtures it walks through: the whole summary each must produce,
 * its eval.scored verdicts and its log. Every fixture the legs drive, written out here or not, is
 * also held to the witness's own grading of its file (derived-grading.ts).
 */
interface Grading {
  readonly summary: Body;
  readonly scored: [number, boolean][];
  readonly log: string;
}

const EXPECTED: Readonly<Partial<Record<FixtureId, Grading>>> = {
  'conformance-eval-trajectory-gate-mean': {
    summary: meanGatedSummary(),
    scored: [
      [1, false],
      [1, false],
    ],
    log: 'S icrcrcrdes icrcrcrdes C R',
  },
  'conformance-eval-trajectory-gate': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 0.5,
      passed: false,
      taskCount: 2,
      passedCount: 1,
      tasks: [
        { taskId: 'matches-trajectory', score: 1, gatedScore: 1, passed: true },
        { taskId: 'wrong-path', score: 1, gatedScore: 0, passed: false },
      ],
    },
    scored: [
      [1, true],
      [1, false],
    ],
    log: 'S icrcrdes icrcrdes C R',
  },
  'conformance-eval-trajectory-gate-control': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-control',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      passed: true,
      taskCount: 2,
      passedCount: 2,
      tasks: [
        { taskId: 'no-trajectory-with-calls', score: 1, passed: true },
        { taskId: 'no-trajectory-no-calls', score: 1, passed: true },
      ],
    },
    scored: [
      [1, true],
      [1, true],
    ],
    log: 'S icrdes ides C R',
  },
  'conformance-eval-trajectory-gate-boundary': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-boundary',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 0.75,
      passed: true,
      taskCount: 1,
      passedCount: 1,
      tasks: [
        {
          taskId: 'forbidden-in-trial-3',
          score: 1,
          gatedScore: 0.75,
          passed: true,
          trials: {
            count: 4,
            passRule: 'mean',
            meanScore: 1,
            passAtK: 1,
            passHatK: 0,
            trialStats: {
              passed: 3,
              trajectoryFailed: 1,
              failedClosed: 0,
              minScore: 1,
              maxScore: 1,
            },
          },
        },
      ],
    },
    scored: [
      [1, true],
      [1, true],
      [1, false],
      [1, true],
    ],
    log: 'S icrcrdes icrcrdes icrcrcrdes icrcrdes C R',
  },
  'conformance-eval-trajectory-gate-any': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-any',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 0.25,
      passed: false,
      taskCount: 2,
      passedCount: 1,
      tasks: [
        {
          taskId: 'wrong-path-then-match',
          score: 1,
          gatedScore: 0.5,
          passed: true,
          trials: {
            count: 2,
            passRule: 'any',
            meanScore: 1,
            passAtK: 1,
            passHatK: 0,
            trialStats: {
              passed: 1,
              trajectoryFailed: 1,
              failedClosed: 0,
              minScore: 1,
              maxScore: 1,
            },
          },
        },
        {
          taskId: 'wrong-path-twice',
          score: 1,
          gatedScore: 0,
          passed: false,
          trials: {
            count: 2,
            passRule: 'any',
            meanScore: 1,
            passAtK: 0,
            passHatK: 0,
            trialStats: {
              passed: 0,
              trajectoryFailed: 2,
              failedClosed: 0,
              minScore: 1,
              maxScore: 1,
            },
          },
        },
      ],
    },
    scored: [
      [1, false],
      [1, true],
      [1, false],
      [1, false],
    ],
    log: 'S icrcrdes icrcrcrdes icrcrdes icrcrdes C R',
  },
  'conformance-eval-trajectory-gate-all': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-all',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 0.5,
      passed: false,
      taskCount: 1,
      passedCount: 0,
      tasks: [
        {
          taskId: 'match-then-forbidden',
          score: 1,
          gatedScore: 0.5,
          passed: false,
          trials: {
            count: 2,
            passRule: 'all',
            meanScore: 1,
            passAtK: 1,
            passHatK: 0,
            trialStats: {
              passed: 1,
              trajectoryFailed: 1,
              failedClosed: 0,
              minScore: 1,
              maxScore: 1,
            },
          },
        },
      ],
    },
    scored: [
      [1, true],
      [1, false],
    ],
    log: 'S icrcrdes icrcrcrdes C R',
  },
  'conformance-eval-trajectory-readings-exact': reading(
    'exact',
    { gatedAggregateScore: 0.5, passed: false },
    [
      ['exact-absent-args-are-empty', 1, 3],
      ['exact-extra-call', 0, 3],
      ['exact-args-differ', 0, 2],
      ['exact-empty-path', 1, 0],
    ],
  ),
  'conformance-eval-trajectory-readings-in-order': reading(
    'in-order',
    { gatedAggregateScore: 0.2, passed: false },
    [
      ['in-order-extra-call', 1, 3],
      ['in-order-swapped', 0, 2],
      ['in-order-args-differ', 0, 2],
      ['in-order-forbidden-inside', 0, 3],
      ['in-order-repeat-once', 0, 2],
    ],
  ),
  'conformance-eval-trajectory-readings-any-order': reading(
    'any-order',
    { gatedAggregateScore: 0.5, passed: true },
    [
      ['any-order-swapped', 1, 2],
      ['any-order-extra-call', 1, 3],
      ['any-order-pairs-args-first', 1, 2],
      ['any-order-args-differ', 0, 2],
      ['any-order-forbidden-inside', 0, 3],
      ['any-order-repeat-once', 0, 2],
    ],
  ),
  // The stated figures, reported as stated: cost summed per task and in totalCostUsd.
  'conformance-eval-trajectory-gate-cost-limit': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-cost-limit',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 1,
      passed: false,
      taskCount: 2,
      passedCount: 2,
      totalCostUsd: 0.06,
      tasks: [
        { taskId: 'tier-of-first-customer', score: 1, gatedScore: 1, passed: true, costUsd: 0.03 },
        { taskId: 'tier-of-second-customer', score: 1, gatedScore: 1, passed: true, costUsd: 0.03 },
      ],
    },
    scored: [
      [1, true],
      [1, true],
    ],
    log: 'S icrdes icrdes C R',
  },
  // The latencies vary so that only a p95 over trial latencies exceeds the limit (their mean and
  // median, and each task's mean, 1750); each task reports its slowest trial's.
  'conformance-eval-trajectory-gate-latency-limit': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-latency-limit',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 1,
      passed: false,
      taskCount: 4,
      passedCount: 4,
      tasks: ['first', 'second', 'third', 'fourth'].map((which) => ({
        taskId: `tier-of-${which}-customer`,
        score: 1,
        gatedScore: 1,
        passed: true,
        latencyMs: 3000,
        trials: TWO_CLEAN_TRIALS,
      })),
    },
    scored: Array.from({ length: 8 }, () => [1, true]),
    log: `S ${'icrdes '.repeat(8)}C R`,
  },
  // One script entry played in both trials: each task's cost is the sum of its two trials'.
  'conformance-eval-trajectory-gate-limits-hold': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-limits-hold',
      suiteVersion: '1.0.0',
      aggregateScore: 1,
      gatedAggregateScore: 1,
      passed: true,
      taskCount: 2,
      passedCount: 2,
      totalCostUsd: 0.5,
      tasks: ['first', 'second'].map((which) => ({
        taskId: `tier-of-${which}-customer`,
        score: 1,
        gatedScore: 1,
        passed: true,
        costUsd: 0.25,
        latencyMs: 100,
        trials: TWO_CLEAN_TRIALS,
      })),
    },
    scored: Array.from({ length: 4 }, () => [1, true]),
    log: `S ${'icrdes '.repeat(4)}C R`,
  },
  // In each task trial 1 fails closed on its unrecorded call and stops there; trial 2 is clean.
  // The second task has no trajectory, so it carries no gatedScore.
  'conformance-eval-trajectory-gate-miss': {
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-miss',
      suiteVersion: '1.0.0',
      aggregateScore: 0.5,
      gatedAggregateScore: 0.5,
      passed: false,
      taskCount: 2,
      passedCount: 0,
      tasks: [
        {
          taskId: 'miss-then-clean',
          score: 0.5,
          gatedScore: 0.5,
          passed: false,
          trials: {
            count: 2,
            passRule: 'mean',
            meanScore: 0.5,
            passAtK: 1,
            passHatK: 0,
            trialStats: {
              passed: 1,
              trajectoryFailed: 0,
              failedClosed: 1,
              minScore: 0,
              maxScore: 1,
            },
          },
        },
        {
          taskId: 'no-path-miss-then-clean',
          score: 0.5,
          passed: false,
          trials: {
            count: 2,
            passRule: 'mean',
            meanScore: 0.5,
            passAtK: 1,
            passHatK: 0,
            trialStats: {
              passed: 1,
              trajectoryFailed: 0,
              failedClosed: 1,
              minScore: 0,
              maxScore: 1,
            },
          },
        },
      ],
    },
    scored: [
      [0, false],
      [1, true],
      [0, false],
      [1, true],
    ],
    log: 'S icrcrdes icrdes icrcrdes icrdes C R',
  },
  // Three outputs miss their golden value, two match only as documented (exactly on passScore 1),
  // and one golden output comes from a call whose args differ only in case.
  'conformance-eval-trajectory-measured': {
    summary: {
      suiteId: 'conformance.evals.trajectory-measured',
      suiteVersion: '1.0.0',
      aggregateScore: 6 / 15,
      gatedAggregateScore: 4 / 15,
      passed: false,
      taskCount: 15,
      passedCount: 4,
      tasks: (
        [
          ['exact-output-differs', 0, 0],
          ['contains-output-lacks', 0, 0],
          ['json-member-differs', 0, 0],
          ['json-members-reordered', 1, 1],
          ['contains-output-inside', 1, 1],
          ['args-differ-in-case', 1, 0],
          ['exact-whitespace-kept', 0, 0],
          ['exact-case-kept', 0, 0],
          ['contains-case-kept', 0, 0],
          ['exact-members-in-own-order', 0, 0],
          ['exact-json-text-matches', 1, 1],
          ['contains-json-text-inside', 1, 1],
          ['json-string-not-parsed', 0, 0],
          ['json-array-order-kept', 0, 0],
          ['args-superset', 1, 0],
        ] as const
      ).map(([taskId, score, gatedScore]) => ({
        taskId,
        score,
        gatedScore,
        passed: gatedScore === 1,
      })),
    },
    scored: [
      [0, false],
      [0, false],
      [0, false],
      [1, true],
      [1, true],
      [1, false],
      [0, false],
      [0, false],
      [0, false],
      [0, false],
      [1, true],
      [1, true],
      [0, false],
      [0, false],
      [1, false],
    ],
    log: `S ${'icrdes '.repeat(15)}C R`,
  },
  // The empty list misses its one call and fails closed; the other two tasks do not miss.
  'conformance-eval-trajectory-readings-miss': {
    summary: {
      suiteId: 'conformance.evals.trajectory-readings-miss',
      suiteVersion: '1.0.0',
      aggregateScore: 2 / 3,
      gatedAggregateScore: 2 / 3,
      passed: true,
      taskCount: 3,
      passedCount: 2,
      tasks: (
        [
          ['empty-list-misses', 0],
          ['no-list-never-misses', 1],
          ['entry-without-response-records', 1],
        ] as const
      ).map(([taskId, score]) => ({ taskId, score, gatedScore: score, passed: score === 1 })),
    },
    scored: [
      [0, false],
      [1, true],
      [1, true],
    ],
    log: 'S icrdes icrdes icrdes C R',
  },
};

const LETTER: Record<string, string> = {
  'eval.started': 'S',
  'agent.invocation-started': 'i',
  'agent.tool-called': 'c',
  'agent.tool-returned': 'r',
  'agent.decided': 'd',
  'agent.invocation-completed': 'e',
  'eval.scored': 's',
  'eval.completed': 'C',
  'run.completed': 'R',
};

/** The log as letters, with a space after each eval.started, eval.scored and eval.completed. */
function logShape(events: readonly WireEvent[]): string {
  return events
    .map((e) => LETTER[e.type] ?? `?${e.type}?`)
    .join('')
    .replace(/([SsC])(?=.)/g, '$1 ');
}

const TENANT_RUN_ID = /^(anon:)?[A-Za-z0-9._~-]{1,128}\/[A-Za-z0-9._~-]{16,128}$/;
const PLAIN_ENVELOPE_KEYS = [
  'eventId',
  'payload',
  'runId',
  'schemaVersion',
  'sequence',
  'timestamp',
  'type',
];

/** The published required members of each agent.* payload, in the published order. */
const AGENT_REQUIRED: Record<string, readonly string[]> = {
  'agent.invocation-started': ['invocationId', 'agentId', 'source'],
  'agent.tool-called': ['agentId', 'toolName', 'callId'],
  'agent.tool-returned': ['agentId', 'toolName', 'callId'],
  'agent.decided': ['agentId', 'decision'],
  'agent.invocation-completed': ['invocationId', 'agentId', 'outcome'],
};

/** The grading written out for a fixture, or undefined where only the derived one speaks. */
function writtenFor(id: FixtureId): Grading | undefined {
  return EXPECTED[id];
}

const DERIVED: ReadonlyMap<FixtureId, DerivedGrading> = new Map(
  await Promise.all(FIXTURE_IDS.map(async (id) => [id, await derivedGrading(id)] as const)),
);

function derivedFor(id: FixtureId): DerivedGrading {
  const derived = DERIVED.get(id);
  if (derived === undefined) throw new Error(`${id} is not a fixture the legs drive`);
  return derived;
}

/** The summary's numbers the derived grading speaks to, to compare with `toEqual`. */
function numbersOf(summary: Body): unknown {
  const tasks = (summary['tasks'] as Body[]).map((t) => ({
    taskId: t['taskId'],
    score: t['score'],
    gatedScore: t['gatedScore'],
    passed: t['passed'],
  }));
  return {
    suite: {
      aggregateScore: summary['aggregateScore'],
      passed: summary['passed'],
      taskCount: summary['taskCount'],
      passedCount: summary['passedCount'],
    },
    gatedAggregateScore: summary['gatedAggregateScore'],
    tasks,
  };
}

function derivedNumbers(d: DerivedGrading): unknown {
  return { suite: d.suite, gatedAggregateScore: d.gatedAggregateScore, tasks: d.tasks };
}

describe('the derived grading', () => {
  it('agrees with every grading written out, so it speaks for the fixtures that have none', () => {
    const written = FIXTURE_IDS.filter((id) => writtenFor(id) !== undefined);
    expect(written.length).toBeGreaterThan(0);
    for (const id of written) {
      const want = writtenFor(id);
      const derived = derivedFor(id);
      expect(derivedNumbers(derived), id).toEqual(numbersOf(want?.summary ?? {}));
      expect(derived.scored, id).toEqual(want?.scored);
      expect(derived.log, id).toBe(want?.log);
    }
  });
});

describe('the conforming reference host', () => {
  it('writes out gradings only of fixtures the legs drive', () => {
    expect(Object.keys(EXPECTED).filter((id) => !FIXTURE_IDS.includes(id))).toEqual([]);
  });

  it('grades every shipped fixture, run concurrently, to the numbers of contract §8', async () => {
    host = await startReferenceHost({ apiKey: 'test-key', trialDelayMs: 2 });
    const url = host.url;
    const drives = await Promise.all(
      FIXTURE_IDS.map((id) => drive(url, id, { apiKey: 'test-key' })),
    );
    expect(new Set(drives.map((d) => d.runId)).size).toBe(FIXTURE_IDS.length);
    for (const [i, id] of FIXTURE_IDS.entries()) {
      const d = drives[i];
      const want = derivedFor(id);
      expect(d?.runStatus, id).toBe('completed');
      expect(numbersOf(d?.summary as Body), id).toEqual(derivedNumbers(want));
      const written = writtenFor(id);
      if (written !== undefined) expect(d?.summary, id).toEqual(written.summary);
      const payloads = evalPayloads(d?.events ?? []);
      const scored = payloads.filter((p) => 'taskId' in p).map((p) => [p['score'], p['passed']]);
      expect(scored, id).toEqual(want.scored);
      const completed = payloads.at(-1);
      expect(completed, id).toEqual(want.suite);
    }
  });

  it('writes each log in contract §7 order, numbered 0..N-1, with eval.scored once per trial', async () => {
    host = await startReferenceHost();
    for (const id of FIXTURE_IDS) {
      const d = await drive(host.url, id);
      expect(logShape(d.events), id).toBe(derivedFor(id).log);
      expect(d.events.map((e) => e.sequence)).toEqual(d.events.map((_, i) => i));
      expect(d.runId, id).toMatch(TENANT_RUN_ID);
      for (const e of d.events) {
        expect(Object.keys(e).sort(), `${id} ${e.type}`).toEqual(PLAIN_ENVELOPE_KEYS);
        expect(e.eventId).toMatch(/^[A-Za-z0-9._~-]{16,128}$/);
        expect(e.schemaVersion).toBe(1);
      }
      expect(new Set(d.events.map((e) => e.eventId)).size).toBe(d.events.length);
      expect(
        d.events.every((e) => e.runId === d.runId && !Number.isNaN(Date.parse(e.timestamp))),
      ).toBe(true);
      const trials = evalPayloads(d.events).flatMap((p) =>
        p['trial'] === undefined ? [] : [p['trial']],
      );
      expect(trials, id).toEqual(derivedFor(id).trialNumbers);
    }
  });

  it('writes agent events under their v2 names with their required members, and run.completed with outputs', async () => {
    host = await startReferenceHost();
    const d = await drive(host.url, 'conformance-eval-trajectory-gate-mean');
    const agent = d.events.filter((e) => e.type.startsWith('agent.'));
    expect(agent.length).toBeGreaterThan(0);
    for (const e of agent) {
      const required = AGENT_REQUIRED[e.type];
      expect(required, e.type).toBeDefined();
      for (const key of required ?? []) expect(e.payload, `${e.type} ${key}`).toHaveProperty(key);
    }
    const called = agent.filter((e) => e.type === 'agent.tool-called').map((e) => e.payload);
    const returned = agent.filter((e) => e.type === 'agent.tool-returned').map((e) => e.payload);
    expect(returned.map((p) => p['callId'])).toEqual(called.map((p) => p['callId']));
    expect(new Set(called.map((p) => p['callId'])).size).toBe(called.length);
    const started = agent.filter((e) => e.type === 'agent.invocation-started');
    expect(started.map((e) => e.payload['source'])).toEqual(['run-api', 'run-api']);
    const outcomes = agent.filter((e) => e.type === 'agent.invocation-completed');
    expect(outcomes.map((e) => e.payload['outcome'])).toEqual(['completed', 'completed']);
    const completed = d.events.at(-1);
    expect(completed?.type).toBe('run.completed');
    expect(completed?.payload).toEqual({ outputs: { evalSummary: d.summary } });
  });

  it('keeps eval payloads and the summary free of outputs and inputs', async () => {
    host = await startReferenceHost();
    const d = await drive(host.url, 'conformance-eval-trajectory-gate');
    const text = JSON.stringify([
      evalPayloads(d.events),
      d.summary,
      d.events.filter((e) => e.type !== 'run.completed').map((e) => e.payload),
    ]);
    expect(text).not.toMatch(/"(output|taskOutput|prompt|input|completion)"/);
    expect(text).not.toContain('12 Harbour Road');
    expect(text).not.toContain('addressUpdated');
  });
});

describe('the varied reference host', () => {
  it('grades the same numbers behind anon: tenant runIds, gapped sequences, one event per page and optional members', async () => {
    host = await startReferenceHost({ variant: 'varied' });
    const discovery = (await (await fetch(`${host.url}/.well-known/openwop`)).json()) as Body;
    expect(discovery['extensions']).toEqual({ 'ref-host.build': { variant: 'varied' } });
    expect(JSON.stringify(discovery)).not.toContain('supported');
    for (const id of FIXTURE_IDS) {
      const d = await drive(host.url, id, { deadlineMs: 30_000 });
      expect(d.runId, id).toMatch(/^anon:guest-7\/run-\d{12}$/);
      expect(d.terminal, id).toBe(true);
      expect(
        d.pages.every((p) => p.events.length <= 1),
        id,
      ).toBe(true);
      const seqs = d.events.map((e) => e.sequence);
      expect(seqs[0]).toBe(0);
      expect(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] ?? Infinity))).toBe(true);
      expect(seqs.some((s, i) => i > 0 && s - (seqs[i - 1] ?? 0) > 1)).toBe(true);
      expect(logShape(d.events), id).toBe(derivedFor(id).log);
      expect(d.events.every((e) => 'engineVersion' in e && 'nodeId' in e)).toBe(true);
      const causes = d.events.filter((e) => e.type === 'agent.tool-returned');
      for (const e of causes) {
        const cause = d.events.find(
          (c) => c.eventId === (e as { causationId?: string }).causationId,
        );
        expect(cause?.type).toBe('agent.tool-called');
      }
      const summary = d.summary as Body;
      // A script that states no cost costs nothing, which the varied host says; a stated cost wins.
      expect(numbersOf(summary), id).toEqual(derivedNumbers(derivedFor(id)));
      const written = writtenFor(id);
      if (written === undefined) continue;
      expect(summary['totalCostUsd'], id).toBe(written.summary['totalCostUsd'] ?? 0);
      expect(JSON.stringify(summary)).not.toContain('x-ref-host-trace');
      expect(evalPayloads(d.events).every((p) => 'x-ref-host-trace' in p)).toBe(true);
      expect(withoutOptional(summary, written.summary), id).toEqual(written.summary);
    }
  });
});

/** The summary without the optional cost members the varied variant adds where none is stated. */
function withoutOptional(summary: Body, plain: Body): unknown {
  if ('totalCostUsd' in plain) return summary;
  const drop = (doc: Body, key: string): Body =>
    Object.fromEntries(Object.entries(doc).filter(([k]) => k !== key));
  const rest = drop(summary, 'totalCostUsd');
  return { ...rest, tasks: (summary['tasks'] as Body[]).map((t) => drop(t, 'costUsd')) };
}
