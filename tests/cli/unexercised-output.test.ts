// The unexercised rules in the outputs: the count under the Markdown summary's closing line and
// in its table, each rule with why under its leg, and the line the console prints before its
// closing line.

import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../lib/report/markdown.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import { reportOf } from './report-example.ts';
import { unexercisedLine, unexercisedTally } from '../../lib/report/unexercised.ts';
import type { UnexercisedRule } from '../../lib/types.ts';

const gap = (rule: string, reason: string): UnexercisedRule => ({ rule, reason });

const row = (id: string, unexercised?: readonly UnexercisedRule[]): ReportRow => ({
  id: `openwop.requirement.0246.${id}`,
  disposition: 'executed-pass',
  assertions: 3,
  durationMs: 5,
  findings: [],
  ...(unexercised === undefined ? {} : { unexercised }),
});

const ROWS = [
  row('mean-gated', [
    gap('wire.error-body', 'no error answer was seen, so wire.error-body had nothing to judge'),
    gap('events.cursor', 'every event came on the first page | once'),
  ]),
  row('suite-gated', []),
  row('gated-fields-shape'),
  row('all-rule-unchanged', [gap('wire.error-body', 'no error answer was seen')]),
];

describe('the unexercised count', () => {
  it('sums the rules listed and counts the legs that list any', () => {
    expect(unexercisedTally(ROWS)).toEqual({ rules: 3, legs: 2 });
    expect(unexercisedTally([row('a', []), row('b')])).toEqual({ rules: 0, legs: 0 });
  });

  it('reads as a line, singular and plural', () => {
    expect(unexercisedLine(ROWS)).toBe('3 rules unexercised on 2 legs');
    expect(unexercisedLine([row('a', [gap('x', 'y')])])).toBe('1 rule unexercised on 1 leg');
    expect(unexercisedLine([row('a', [])])).toBe('every applicable rule was exercised');
  });
});

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(reportOf(ROWS));

  it('gives the count under the closing line, and per leg in the table', () => {
    expect(markdown).toMatch(
      /\*\*4 passed, 0 failed, 0 blocked, 0 skipped; not certified: [^*]+\*\* · openwop-eval-gate-conformance 0\.1\.0\n\nNot exercised: 3 rules unexercised on 2 legs\.\n/,
    );
    expect(markdown).toContain('| requirement | disposition | assertions | unexercised | reason |');
    expect(markdown).toContain(
      '| openwop.requirement.0246.mean-gated | executed-pass | 3 | 2 |  |',
    );
    expect(markdown).toContain(
      '| openwop.requirement.0246.suite-gated | executed-pass | 3 | 0 |  |',
    );
    expect(markdown).toContain(
      '| openwop.requirement.0246.gated-fields-shape | executed-pass | 3 | — |  |',
    );
  });

  it('lists each unexercised rule with why under its leg, and nothing under a leg with none', () => {
    expect(markdown).toContain(
      'Not exercised on openwop.requirement.0246.mean-gated:\n\n' +
        '- `wire.error-body`: no error answer was seen, so wire.error-body had nothing to judge\n' +
        '- `events.cursor`: every event came on the first page \\| once',
    );
    expect(markdown).not.toContain('Not exercised on openwop.requirement.0246.suite-gated');
    expect(markdown).not.toContain('Not exercised on openwop.requirement.0246.gated-fields-shape');
  });
});
