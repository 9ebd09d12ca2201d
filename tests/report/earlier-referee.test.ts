// The differences an earlier referee may explain, one at a time, against literal reports: the
// legacy packs (tests/report/legacy-packs.test.ts) show them on reports old bins wrote.

import { describe, expect, it } from 'vitest';
import { reportShapeProblem } from '../../cli/verify.ts';
import { canonicalDigest } from '../../lib/report/canonical.ts';
import {
  absentMembers,
  inCurrentShape,
  sameFindingReworded,
  splitEarlierDifferences,
} from '../../lib/report/verify/earlier-referee.ts';
import type { JsonDifference } from '../../lib/report/verify/json-diff.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';

describe('a finding worded by an earlier referee', () => {
  it.each([
    [
      'the same numbers in another order',
      'gatedScore 0.5 of 2 trials',
      'of 2 trials the gatedScore is 0.5',
      false,
    ],
    [
      'the numbers kept in order, one added',
      'passed MUST be false (1 trial)',
      'passed MUST be false (1 trial; 0 ≥ 0)',
      true,
    ],
    ['a number changed', 'task "task-1": 0.75', 'task "task-1": 0.7', false],
    ['a number dropped', 'task "task-1": 3 of 4', 'task "task-1": 3', false],
    ['no numbers at all', 'the run completed', 'the run MUST complete', true],
  ] as const)('%s', (_, recorded, rebuilt, same) => {
    expect(sameFindingReworded(recorded, rebuilt)).toBe(same);
  });

  it('a member that is not a string is never a rewording', () => {
    expect(sameFindingReworded(undefined, 'x')).toBe(false);
  });
});

const rows = [{ id: 'r', findings: [{ rule: 'x', ok: true, message: 'old 1' }] }];
const report = (digest: string) =>
  ({ requirements: rows, digests: { rows: digest } }) as unknown as EvalGateReport;
const message: JsonDifference = {
  path: 'requirements[id=r].findings[0].message',
  recorded: 'old 1',
  rebuilt: 'new 1',
};
const rowsDigest: JsonDifference = { path: 'digests.rows', recorded: 'a', rebuilt: 'b' };

describe('splitting the differences of a report another referee judged', () => {
  it('a reworded message and the rows digest over it, recomputing as recorded, are referee differences', () => {
    const split = splitEarlierDifferences(report(canonicalDigest(rows)), [message, rowsDigest]);
    expect(split.problems).toEqual([]);
    expect(split.refereeDifferences).toHaveLength(2);
  });

  it('a rows digest that does not recompute over the rows as recorded is a problem', () => {
    const split = splitEarlierDifferences(report('0'.repeat(64)), [message, rowsDigest]);
    expect(split.problems).toEqual(['digests.rows: recorded "a", rebuilt "b"']);
  });

  it('a rows digest beside a difference of outcome is a problem', () => {
    const ok: JsonDifference = {
      path: 'requirements[id=r].findings[0].ok',
      recorded: true,
      rebuilt: false,
    };
    const split = splitEarlierDifferences(report(canonicalDigest(rows)), [message, ok, rowsDigest]);
    expect(split.problems).toEqual([
      'requirements[id=r].findings[0].ok: recorded true, rebuilt false',
      'digests.rows: recorded "a", rebuilt "b"',
    ]);
  });

  it('an absent inapplicable list is the earlier shape only while the rebuild holds none', () => {
    const old = { hostChecks: { probes: [], findings: [], unexercised: [] }, digests: {} };
    const absent = (rebuilt: unknown): JsonDifference => ({
      path: 'hostChecks.inapplicable',
      recorded: undefined,
      rebuilt,
    });
    const asReport = old as unknown as EvalGateReport;
    expect(splitEarlierDifferences(asReport, [absent([])]).problems).toEqual([]);
    expect(splitEarlierDifferences(asReport, [absent([{ rule: 'r' }])]).problems).toEqual([
      'hostChecks.inapplicable: recorded nothing, rebuilt [{"rule":"r"}]',
    ]);
  });
});

describe('the report shapes an earlier schema allowed', () => {
  it('host checks without inapplicable are named and read as an empty list', () => {
    const old = { hostChecks: { probes: [] } };
    expect(absentMembers(old)).toEqual(['hostChecks.inapplicable']);
    expect(inCurrentShape(old)).toEqual({ hostChecks: { probes: [], inapplicable: [] } });
    expect(old).toEqual({ hostChecks: { probes: [] } });
    expect(inCurrentShape({ hostChecks: { inapplicable: [] } })).toEqual({
      hostChecks: { inapplicable: [] },
    });
  });

  it('the schema still refuses a report missing anything else', () => {
    expect(
      reportShapeProblem({ hostChecks: { probes: [], findings: [], unexercised: [] } }),
    ).toMatch(/^the report does not match its schema: /);
  });
});
