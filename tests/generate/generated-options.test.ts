// The CI options on a run whose generated row rides along (`--only X --generate N`, a baseline):
// the closing line counts the row among those that ran, as the certification does, and a baseline
// may name the row and its rules like any leg's.

import { describe, expect, it } from 'vitest';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import { resolveBaseline } from '../../lib/report/verdict/baseline.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import { NOT_SELECTED, readExpectedFailures } from '../../lib/report/run-options.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import { closingLineOf, runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import {
  broken,
  HOST_LEGS,
  hostKey,
  KEY_ID,
  passingRows,
  reportWith,
} from '../channels/support.ts';

const KEY = hostKey();
const FIRST_HOST = HOST_LEGS[0]?.id ?? '';

function generatedRow(row: Partial<ReportRow> = {}): ReportRow {
  return {
    id: GENERATED_REQUIREMENT,
    disposition: 'executed-pass',
    assertions: 3,
    durationMs: 5,
    findings: [],
    ...row,
  };
}

/** Only the first host leg selected, the generated row beside it. */
function onlyOneLeg(): ReportRow[] {
  // passingRows() holds a passing generated row too; this run's is the one added below.
  const legs = passingRows()
    .filter((r) => r.id !== GENERATED_REQUIREMENT)
    .map((r) =>
      r.id === FIRST_HOST
        ? r
        : {
            ...r,
            disposition: 'skipped' as const,
            assertions: 0,
            findings: [],
            reason: NOT_SELECTED,
          },
    );
  return [...legs, generatedRow()];
}

describe('--only X --generate N', () => {
  const rows = onlyOneLeg();
  const options = { selection: { only: [FIRST_HOST], skip: [] } };
  const report = certifiedReport(
    reportWith(rows, KEY, runRecord(options, rows)),
    KEY.privateKey,
    KEY_ID,
  );
  const verdict = runVerdict(report);
  const total = LEGS.length + 1;

  it('the closing line counts the leg and the generated row as selected, out of every row', () => {
    const line = closingLineOf(verdict);
    expect(line).toContain(`; partial: 2 of ${total} selected;`);
    expect(line).toMatch(
      new RegExp(`^PASS; 2 passed, 0 failed, 0 blocked, ${LEGS.length - 1} skipped`),
    );
  });

  it('says the same count the certification gives', () => {
    const partial = verdict.certification.reasons.find((r) => r.code === 'partial');
    expect(partial?.short).toBe(`partial 2 of ${total}`);
  });
});

describe('a baseline naming the generated row', () => {
  it('is read with its prefix or without, and with a rule the witness checks', () => {
    expect(
      readExpectedFailures({
        expectedFailures: [
          { requirement: 'generated', reason: 'pack cases tracked as HOST-9' },
          {
            requirement: GENERATED_REQUIREMENT,
            rule: 'task.gated-score-value',
            reason: 'one clause tracked as HOST-10',
          },
        ],
      }),
    ).toEqual([
      { requirement: GENERATED_REQUIREMENT, reason: 'pack cases tracked as HOST-9' },
      {
        requirement: GENERATED_REQUIREMENT,
        rule: 'task.gated-score-value',
        reason: 'one clause tracked as HOST-10',
      },
    ]);
  });

  it('refuses a rule no generated case is judged by', () => {
    expect(() =>
      readExpectedFailures({
        expectedFailures: [
          { requirement: 'generated', rule: 'shape.base-summary.valid', reason: 'r' },
        ],
      }),
    ).toThrow(`names rule shape.base-summary.valid, which ${GENERATED_REQUIREMENT} never records`);
  });

  it('excuses a failing generated row, and goes stale once the row passes', () => {
    const failing = generatedRow({
      disposition: 'executed-fail',
      reason: '1 of 3 generated fixtures failed',
      findings: [broken('task.passed')],
    });
    const [entry] = readExpectedFailures({
      expectedFailures: [{ requirement: 'generated', rule: 'task.passed', reason: 'HOST-9' }],
    });
    if (entry === undefined) throw new Error('the baseline has one entry');
    const excused = resolveBaseline([entry], [...passingRows(), failing], 'must');
    expect(excused.unexcused).toEqual([]);
    expect(excused.excused).toEqual([{ requirement: GENERATED_REQUIREMENT, rule: 'task.passed' }]);

    const stale = resolveBaseline([entry], [...passingRows(), generatedRow()], 'must');
    expect(stale.entries.map((e) => [e.requirement, e.status])).toEqual([
      [GENERATED_REQUIREMENT, 'stale'],
    ]);
  });
});
