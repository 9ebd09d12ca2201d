// The per-trial rules (lib/witness/trials.ts) in words: each test changes one thing in a correct
// log, or one call in the script the host ran, names every rule that must then fail, and pins
// the trial, the reason and the count the failing message gives.

import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../lib/types.ts';
import { GATED, scoredPayload, UNGATED, type Draft } from './build.ts';
import { judgedBy } from './mutate.ts';

interface Judged {
  readonly failing: string[];
  /** Messages of the trial.* findings, held or not, in report order. */
  readonly trials: string[];
  /** Messages of the failing trial.* findings. */
  readonly said: string[];
}

function judge(fixture: Fixture, mutate?: (d: Draft) => void): Judged {
  const { failing, own, said } = judgedBy('trial.', fixture, mutate);
  return { failing, trials: own, said };
}

/** GATED with one change to what the agent did in right-path's only scripted trial. */
function rightPathScript(edit: (calls: { tool: string }[]) => void): Fixture {
  const fixture = structuredClone(GATED);
  const trial = fixture.script['right-path']?.[0] as unknown as { calls: { tool: string }[] };
  edit(trial.calls);
  return fixture;
}

describe('a correct log: each task says how many eval.scored events it judged', () => {
  it('two per task on the gated run', () => {
    expect(judge(GATED).trials.slice(0, 3)).toEqual([
      'task "right-path": all 2 eval.scored events carry the output score',
      'task "right-path": all 2 eval.scored events carry the trial verdict',
      'task "right-path": trajectoryMatched and failedClosed, where carried, agree in all 2 eval.scored events',
    ]);
  });

  it('one per task on the ungated run', () => {
    expect(judge(UNGATED).trials[0]).toBe(
      'task "alpha": the 1 eval.scored event carries the output score',
    );
  });
});

describe('trial.passed gives the reason a failed trial failed', () => {
  it('a forbidden tool', () => {
    const { failing, said } = judge(
      GATED,
      (d) => (scoredPayload(d, 'wrong-path', 2).passed = true),
    );
    expect(failing).toEqual(['trial.passed']);
    expect(said).toEqual([
      'task "wrong-path": eval.scored.passed MUST be the trial verdict; trial 2 MUST be false, forbidden tool billing:void, host reported passed true',
    ]);
  });

  it('a score below passScore', () => {
    const { said } = judge(GATED, (d) => (scoredPayload(d, 'plain', 2).passed = true));
    expect(said).toEqual([
      'task "plain": eval.scored.passed MUST be the trial verdict; trial 2 MUST be false, score 0 below passScore, host reported passed true',
    ]);
  });

  it('a tool the fixture has no response for: failed closed, naming the tool', () => {
    const { failing, said } = judge(rightPathScript((calls) => calls.push({ tool: 'crm:delete' })));
    expect(failing).toEqual([
      'suite.aggregate-unchanged',
      'suite.gated-aggregate-value',
      'suite.passed',
      'task.gated-score-value',
      'task.mean-score',
      'task.passed',
      'task.score-unchanged',
      'task.trial-stats',
      'trial.flags',
      'trial.passed',
      'trial.score-unchanged',
    ]);
    expect(said).toEqual([
      'task "right-path": eval.scored.score MUST stay the output score; trial 1 MUST be 0 (it failed closed on crm:delete without a canned response, so the witness scores 0), host reported score 1 (and 1 more)',
      'task "right-path": eval.scored.passed MUST be the trial verdict; trial 1 MUST be false, failed closed on crm:delete, host reported passed true (and 1 more)',
      'task "right-path": eval.scored flags SHOULD agree with the trial; trial 1 is trajectoryMatched true, failedClosed true; host reported true, false (and 1 more)',
    ]);
  });

  it('a trajectory that did not match, with no forbidden tool', () => {
    const { failing, said } = judge(rightPathScript((calls) => calls.pop()));
    expect(failing).toEqual([
      'suite.gated-aggregate-value',
      'suite.passed',
      'task.gated-score-value',
      'task.passed',
      'task.trial-stats',
      'trial.flags',
      'trial.passed',
    ]);
    expect(said).toEqual([
      'task "right-path": eval.scored.passed MUST be the trial verdict; trial 1 MUST be false, trajectory did not match, host reported passed true (and 1 more)',
      'task "right-path": eval.scored flags SHOULD agree with the trial; trial 1 is trajectoryMatched false, failedClosed false; host reported true, false (and 1 more)',
    ]);
  });

  it('names the first wrong trial and counts the rest', () => {
    const { failing, said } = judge(GATED, (d) => {
      scoredPayload(d, 'wrong-path', 1).passed = 'yes';
      scoredPayload(d, 'wrong-path', 2).passed = true;
    });
    expect(failing).toEqual(['events.payload-schema', 'trial.passed']);
    expect(said).toEqual([
      'task "wrong-path": eval.scored.passed MUST be the trial verdict; trial 1 MUST be true, host reported passed the string "yes" (and 1 more)',
    ]);
  });
});

describe('trial.score-unchanged and trial.flags name the first wrong trial', () => {
  it('two changed scores: the first with its output score, and one more', () => {
    const { failing, said } = judge(GATED, (d) => {
      scoredPayload(d, 'right-path', 1).score = 0.5;
      scoredPayload(d, 'right-path', 2).score = 0;
    });
    expect(failing).toEqual(['trial.score-unchanged']);
    expect(said).toEqual([
      'task "right-path": eval.scored.score MUST stay the output score; trial 1 MUST be 1 (the scripted output "address updated" matches golden "address updated" by exact, so the witness scores 1), host reported score 0.5 (and 1 more)',
    ]);
  });

  it('cuts a long scripted output in the derivation', () => {
    const long = 'O-3 is pending '.repeat(6);
    const fixture: Fixture = {
      ...GATED,
      script: { ...GATED.script, plain: [{ calls: [], output: long }] },
    };
    const { said } = judge(fixture, (d) => (scoredPayload(d, 'plain', 2).score = 1));
    expect(said[0]).toContain(
      'trial 1 MUST be 0 (the scripted output "O-3 is pending O-3 is pending O-3 is pending O-3 is pending… does not match golden "shipped" by contains',
    );
  });

  it('a host whose golden comparison differs sees the derivation: output, golden value, strategy, both scores', () => {
    const { failing, said } = judge(GATED, (d) => (scoredPayload(d, 'plain', 2).score = 1));
    expect(failing).toEqual(['trial.score-unchanged']);
    expect(said).toEqual([
      'task "plain": eval.scored.score MUST stay the output score; trial 2 MUST be 0 (the scripted output "O-3 is pending" does not match golden "shipped" by contains, so the witness scores 0), host reported score 1',
    ]);
  });

  it('a task without trajectory reported as missing it, and a failedClosed that is wrong', () => {
    const { failing, said } = judge(GATED, (d) => {
      scoredPayload(d, 'plain', 1).trajectoryMatched = false;
      scoredPayload(d, 'plain', 2).failedClosed = true;
    });
    expect(failing).toEqual(['trial.flags']);
    expect(said).toEqual([
      'task "plain": eval.scored flags SHOULD agree with the trial; trial 1 is trajectoryMatched true, failedClosed false; host reported false, false (and 1 more)',
    ]);
  });

  it('on a task without trajectory, trajectoryMatched true and a right failedClosed agree', () => {
    expect(
      judge(UNGATED, (d) => {
        scoredPayload(d, 'alpha').trajectoryMatched = true;
        scoredPayload(d, 'beta').failedClosed = false;
      }).failing,
    ).toEqual([]);
  });

  it('an absent flag is not judged, a present wrong one is, saying nothing for the absent one', () => {
    const { said } = judge(UNGATED, (d) => (scoredPayload(d, 'alpha').trajectoryMatched = false));
    expect(said).toEqual([
      'task "alpha": eval.scored flags SHOULD agree with the trial; trial 1 is trajectoryMatched true, failedClosed false; host reported false, nothing',
    ]);
  });
});

describe('a task none of whose eval.scored can be placed', () => {
  it('gets no trial finding; events.scored-count alone reports it', () => {
    const { failing, trials } = judge(GATED, (d) => {
      scoredPayload(d, 'plain', 1).trial = 7;
      scoredPayload(d, 'plain', 2).trial = 9;
    });
    expect(failing).toEqual(['events.scored-count']);
    expect(trials.filter((m) => m.startsWith('task "plain"'))).toEqual([]);
    expect(trials).toHaveLength(6);
  });
});
