import { describe, expect, it } from 'vitest';
import { EXIT } from '../../lib/report/verdict/verdict.ts';
import { closingLineOf, runVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { reportOf } from '../cli/report-example.ts';
import { decide } from '../../lib/decide/decide.ts';
import type { Finding } from '../../lib/types.ts';

const must = (ok: boolean, rule = 'task.passed'): Finding => ({
  rule,
  ok,
  severity: 'MUST',
  ref: 'RFC 0246 §B',
  message: `${rule} ${ok ? 'held' : 'failed'}`,
});
const should = (ok: boolean): Finding => ({ ...must(ok, 'task.trial-stats'), severity: 'SHOULD' });

describe('dispositions from findings', () => {
  it('zero findings is blocked, never a pass', () => {
    const d = decide([]);
    expect(d.disposition).toBe('blocked');
    expect(d.reason).toMatch(/zero assertions/);
  });

  it('every MUST holding is a pass that counts each finding as an assertion', () => {
    const d = decide([must(true), must(true, 'suite.passed'), should(false)]);
    expect(d).toMatchObject({ disposition: 'executed-pass', assertions: 3 });
    expect(d.reason).toBeUndefined();
  });

  it('a failing SHOULD alone does not fail the leg', () => {
    expect(decide([must(true), should(false)]).disposition).toBe('executed-pass');
  });

  it('a failing MUST fails the leg and the reason quotes the rule, its clause and message', () => {
    const d = decide([must(true), must(false, 'suite.passed')]);
    expect(d.disposition).toBe('executed-fail');
    expect(d.reason).toBe('1 MUST finding failed: suite.passed (RFC 0246 §B): suite.passed failed');
  });

  it('a reason quotes three failures and counts the rest', () => {
    const d = decide(['a', 'b', 'c', 'd', 'e'].map((r) => must(false, r)));
    expect(d.reason).toMatch(
      /^5 MUST findings failed: a .*; c \(RFC 0246 §B\): c failed; and 2 more$/,
    );
  });
});

describe('exit status and closing line (contract §10)', () => {
  it.each([
    [
      ['executed-pass', 'inapplicable', 'skipped'],
      EXIT.ok,
      '1 passed, 0 failed, 0 blocked, 2 skipped',
    ],
    [
      ['executed-pass', 'executed-fail', 'blocked'],
      EXIT.failed,
      '1 passed, 1 failed, 1 blocked, 0 skipped',
    ],
    [['executed-pass', 'blocked'], EXIT.blocked, '1 passed, 0 failed, 1 blocked, 0 skipped'],
    [[], EXIT.ok, '0 passed, 0 failed, 0 blocked, 0 skipped'],
  ] as const)('%j exits %i with "%s"', (dispositions, code, line) => {
    const rows = dispositions.map((disposition, i) => ({
      id: `row-${i}`,
      disposition,
      assertions: 1,
      durationMs: 1,
      findings: [],
    }));
    const verdict = runVerdict(reportOf(rows));
    expect(verdict.exitCode).toBe(code);
    const [result, counts] = closingLineOf(verdict).split('; ');
    expect(result).toMatch(code === EXIT.ok ? /^PASS$/ : /^(FAIL|BLOCKED): 1 /);
    expect(counts).toBe(line);
  });
});
