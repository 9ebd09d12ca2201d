// The recheck's comparison, on literal objects: what the host answers now beside what the report
// recorded. Each way a record can fail to hold is shown failing, and each member a correct host
// answers differently every time (ids, latencies, costs, bodies) is shown ignored.

import { describe, expect, it } from 'vitest';
import {
  compareDrive,
  compareProbe,
  evidenceClause,
  recheckLine,
  recheckOutcome,
  recheckReason,
  type WitnessedDrive,
} from '../../lib/report/verify/recheck.ts';
import type { ObservedProbe, RunObservation } from '../../lib/types.ts';

const answered = (status: number): ObservedProbe => ({
  probe: 'near-miss-last-character',
  outcome: 'answered',
  request: 'POST /runs',
  status,
  body: { json: { error: { code: 'x', nonce: Math.random() } } },
});

function observation(summary: unknown, runId = 'tenant/run-1'): RunObservation {
  return {
    runId,
    evalSuiteRef: 's@1',
    agentId: 'a',
    pages: [],
    events: [],
    runStatus: 'completed',
    summary,
  };
}

const SUMMARY = {
  suiteId: 's',
  suiteVersion: '1',
  aggregateScore: 0.5,
  gatedAggregateScore: 0.5,
  passed: false,
  taskCount: 2,
  passedCount: 1,
  totalCostUsd: 0.02,
  tasks: [
    { taskId: 't1', score: 1, passed: true, latencyMs: 12, costUsd: 0.01 },
    { taskId: 't2', score: 0, passed: false, gatedScore: 0, latencyMs: 40 },
  ],
};

const drive = (summary: unknown, runId?: string): WitnessedDrive => ({
  disposition: 'executed-pass',
  observation: observation(summary, runId),
});

describe('compareProbe', () => {
  it('names a status the host now answers otherwise, and ignores the body', () => {
    expect(compareProbe(answered(401), answered(401))).toEqual({ kind: 'same' });
    expect(compareProbe(answered(401), answered(404))).toEqual({
      kind: 'differs',
      difference: {
        member: 'host check near-miss-last-character: status',
        recorded: 'answered 401',
        now: 'answered 404',
      },
    });
  });

  it('a probe recorded as not sent that the host now answers is a difference of outcome', () => {
    const notMade: ObservedProbe = {
      probe: 'near-miss-last-character',
      outcome: 'not-made',
      reason: 'no key',
    };
    expect(compareProbe(notMade, answered(201))).toMatchObject({
      kind: 'differs',
      difference: { member: 'host check near-miss-last-character: outcome', recorded: 'not-made' },
    });
    expect(compareProbe(notMade, notMade)).toEqual({ kind: 'same' });
  });

  it('an answer lost now, or a probe the recheck had no key for, is unwitnessed, never a verdict', () => {
    const lost: ObservedProbe = {
      probe: 'near-miss-last-character',
      outcome: 'unobserved',
      request: 'POST /runs',
      reason: 'timed out',
    };
    expect(compareProbe(answered(401), lost).kind).toBe('unwitnessed');
    expect(
      compareProbe(answered(401), {
        probe: 'near-miss-last-character',
        outcome: 'not-made',
        reason: 'no API key is configured',
      }),
    ).toEqual({
      kind: 'unwitnessed',
      why: 'host check near-miss-last-character: not sent now: no API key is configured',
    });
    expect(compareProbe(lost, answered(201))).toEqual({ kind: 'not-compared' });
  });
});

describe('compareDrive', () => {
  it('ignores run ids, latencies and costs, which a correct host answers differently each time', () => {
    const now = {
      ...SUMMARY,
      totalCostUsd: 0.9,
      tasks: [
        { ...SUMMARY.tasks[0], latencyMs: 999, costUsd: 5 },
        { ...SUMMARY.tasks[1], latencyMs: 1 },
      ],
    };
    expect(compareDrive('row r', drive(SUMMARY), drive(now, 'tenant/run-2'))).toEqual({
      kind: 'same',
    });
  });

  it('matches tasks by taskId, so an order the contract leaves open is no difference', () => {
    const reordered = { ...SUMMARY, tasks: [SUMMARY.tasks[1], SUMMARY.tasks[0]] };
    expect(compareDrive('row r', drive(SUMMARY), drive(reordered)).kind).toBe('same');
  });

  it('names the first summary member that differs, with both values', () => {
    expect(compareDrive('row r', drive(SUMMARY), drive({ ...SUMMARY, passedCount: 2 }))).toEqual({
      kind: 'differs',
      difference: { member: 'row r: summary.passedCount', recorded: '1', now: '2' },
    });
    const task = { ...SUMMARY, tasks: [SUMMARY.tasks[0], { ...SUMMARY.tasks[1], gatedScore: 1 }] };
    expect(compareDrive('row r', drive(SUMMARY), drive(task))).toEqual({
      kind: 'differs',
      difference: {
        member: 'row r: summary.tasks[taskId=t2].gatedScore',
        recorded: '0',
        now: '1',
      },
    });
  });

  it('names a disposition that differs when the summaries agree, and a run not seen now as unwitnessed', () => {
    const failed: WitnessedDrive = { ...drive(SUMMARY), disposition: 'executed-fail' };
    expect(compareDrive('row r', drive(SUMMARY), failed)).toMatchObject({
      kind: 'differs',
      difference: { member: 'row r: disposition', recorded: 'executed-pass' },
    });
    expect(
      compareDrive('row r', drive(SUMMARY), { disposition: 'blocked', reason: 'timed out' }),
    ).toEqual({ kind: 'unwitnessed', why: 'row r: not observed now (timed out)' });
    expect(
      compareDrive('row r', { disposition: 'blocked', reason: 'lost' }, drive(SUMMARY)).kind,
    ).toBe('not-compared');
  });
});

describe('recheckOutcome', () => {
  const at = '2026-12-07T02:00:00Z';
  const url = 'https://host.example';
  const differs = compareProbe(answered(401), answered(404));
  const lost = compareProbe(answered(401), {
    probe: 'near-miss-last-character',
    outcome: 'unobserved',
    request: 'POST /runs',
    reason: 'timed out',
  });

  it('a difference decides over an answer lost, and withholds the certification', () => {
    const outcome = recheckOutcome(url, at, [{ kind: 'same' }, lost, differs]);
    expect(outcome.kind).toBe('differs');
    expect(recheckReason(outcome)?.code).toBe('recheck-differs');
    expect(evidenceClause(outcome)).toBe("(the host's own record; re-witness with --recheck)");
  });

  it('an answer lost now is not re-witnessed, and withholds the certification as such', () => {
    const outcome = recheckOutcome(url, at, [{ kind: 'same' }, lost]);
    expect(recheckLine(outcome)).toBe(
      'not re-witnessed at https://host.example: host check near-miss-last-character: no answer now (timed out)',
    );
    expect(recheckReason(outcome)?.code).toBe('recheck-unwitnessed');
  });

  it('every record borne out says where and when it was re-witnessed', () => {
    const outcome = recheckOutcome(url, at, [{ kind: 'same' }, { kind: 'not-compared' }]);
    expect(recheckReason(outcome)).toBeUndefined();
    expect(evidenceClause(outcome)).toBe(`(re-witnessed at ${url} on ${at})`);
    expect(recheckLine(outcome)).toBe(
      `re-witnessed at ${url} on ${at}: 1 recorded answer compared, each the same`,
    );
  });
});
