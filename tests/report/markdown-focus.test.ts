// The Markdown summary leads with what needs doing: failed, blocked and inapplicable requirements
// (and a passed one that fails the run through a warning) come first, in that order; the passed
// and unselected ones are folded into one <details> block, table and legs alike.

import { describe, expect, it } from 'vitest';
import type { ReportRow } from '../../lib/report/report.ts';
import type { Disposition, Finding } from '../../lib/types.ts';
import { markdownOf, reportOf } from '../cli/report-example.ts';

const failing: Finding = {
  rule: 'task.passed',
  ok: false,
  severity: 'MUST',
  ref: 'RFC 0246 §B',
  message: 'passed MUST be false',
};

const warning: Finding = {
  rule: 'wire.poll-page',
  ok: false,
  severity: 'SHOULD',
  ref: 'contract §6',
  message: 'a page carried an extra member',
};

const row = (
  id: string,
  disposition: Disposition,
  findings: readonly Finding[] = [],
): ReportRow => ({
  id: `openwop.requirement.0246.${id}`,
  disposition,
  assertions: findings.length,
  durationMs: 1,
  ...(disposition === 'executed-pass' ? {} : { reason: `${id} reason` }),
  findings,
  // An observation-free failing row still gets its own section through its unexercised rules.
  unexercised: [{ rule: 'events.cursor', reason: `${id} gap` }],
});

const ROWS = [
  row('mean-gated', 'executed-pass'),
  row('suite-gated', 'inapplicable'),
  row('any-rule-unchanged', 'skipped'),
  row('all-rule-unchanged', 'blocked'),
  row('readings-exact', 'executed-fail', [failing]),
  row('limits-hold', 'executed-pass', [warning]),
];

/** Where each requirement's table row sits in the text. */
function rowAt(markdown: string, id: string): number {
  return markdown.indexOf(`| openwop.requirement.0246.${id} |`);
}

describe('the Markdown summary', () => {
  const markdown = markdownOf(reportOf(ROWS));
  const fold = markdown.indexOf('<details>');

  it('tables the failed, then the blocked, then the inapplicable requirements, before any fold', () => {
    const order = ['readings-exact', 'all-rule-unchanged', 'suite-gated'].map((id) =>
      rowAt(markdown, id),
    );
    expect(order.every((at) => at > 0 && at < fold)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('folds the passed and unselected requirements, with their legs, into one <details>', () => {
    expect(markdown.match(/<details>/g)).toHaveLength(1);
    expect(markdown).toContain(
      '<details>\n<summary>2 passed, 1 skipped (table and legs)</summary>\n\n|',
    );
    for (const id of ['mean-gated', 'limits-hold', 'any-rule-unchanged']) {
      expect(rowAt(markdown, id)).toBeGreaterThan(fold);
    }
    expect(
      markdown.indexOf('Not exercised on openwop.requirement.0246.mean-gated'),
    ).toBeGreaterThan(fold);
    expect(
      markdown.indexOf('Not exercised on openwop.requirement.0246.readings-exact'),
    ).toBeLessThan(fold);
    expect(markdown).toMatch(/\n\n<\/details>\n/);
  });

  it('puts a passed requirement first when its warning fails the run under --fail-on should', () => {
    const strict = markdownOf(reportOf(ROWS, { failOn: 'should' }));
    const folded = strict.indexOf('<details>');
    expect(rowAt(strict, 'limits-hold')).toBeLessThan(folded);
    expect(rowAt(strict, 'limits-hold')).toBeGreaterThan(rowAt(strict, 'suite-gated'));
    expect(rowAt(strict, 'mean-gated')).toBeGreaterThan(folded);
  });

  it('has no fold when nothing passed, and no leading table when everything did', () => {
    expect(markdownOf(reportOf([row('readings-exact', 'executed-fail', [failing])]))).not.toContain(
      '<details>',
    );
    const clean = markdownOf(reportOf([row('mean-gated', 'executed-pass')]));
    expect(clean.match(/\| requirement \| disposition/g)).toHaveLength(1);
    expect(clean.indexOf('| requirement | disposition')).toBeGreaterThan(
      clean.indexOf('<details>'),
    );
  });
});
