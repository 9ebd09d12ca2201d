// The unexercised rules in the outputs: the count under the Markdown summary's closing line and
// in its table, each rule with why under its leg, and the line the console prints before its
// closing line. A rule the host checks also judge (`wire.error-body`) is owed once per run: it is
// counted and listed once, and not at all when any leg or host check judged it.

import { beforeEach, describe, expect, it } from 'vitest';
import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { junitOf, markdownOf, reportOf } from '../cli/report-example.ts';
import {
  legGaps,
  runWideGaps,
  unexercisedLine,
  unexercisedTally,
} from '../../lib/report/verdict/unexercised.ts';
import type { Finding, HostChecks, UnexercisedRule } from '../../lib/types.ts';

const gap = (rule: string, reason: string): UnexercisedRule => ({ rule, reason });

const NO_ERROR = 'no error answer was seen, so wire.error-body had nothing to judge';

const row = (
  id: string,
  unexercised?: readonly UnexercisedRule[],
  findings: readonly Finding[] = [],
): ReportRow => ({
  id: `openwop.requirement.0246.${id}`,
  disposition: 'executed-pass',
  assertions: 3,
  durationMs: 5,
  findings,
  ...(unexercised === undefined ? {} : { unexercised }),
});

const errorBody = (ok: boolean): Finding => ({
  rule: 'wire.error-body',
  ok,
  severity: 'SHOULD',
  ref: 'contract §1, §6',
  message: 'GET /runs/x answered 404: the body is the v2 error envelope',
});

const checks = (findings: readonly Finding[]): HostChecks => ({
  probes: [],
  findings,
  unexercised: [],
  inapplicable: [],
});

/** Two legs with rules of their own, and a run-wide rule no leg saw an error answer for. */
const ROWS = [
  row('mean-gated', [
    gap('wire.error-body', NO_ERROR),
    gap('events.cursor', 'every event came on the first page | once'),
    gap('limits.figures', 'the host reported no figure'),
  ]),
  row('suite-gated', [gap('wire.error-body', NO_ERROR)]),
  row('gated-fields-shape'),
  row('all-rule-unchanged', [gap('events.cursor', 'every event came on the first page')]),
];

const facts = (
  rows: readonly ReportRow[],
  hostChecks?: HostChecks,
): Pick<EvalGateReport, 'requirements' | 'hostChecks'> => ({
  requirements: rows,
  ...(hostChecks === undefined ? {} : { hostChecks }),
});

describe('the unexercised count', () => {
  it("sums each leg's own rules and counts the legs that list any", () => {
    const own = ROWS.map((r) => ({ ...r, unexercised: legGaps(r) }));
    expect(unexercisedTally(facts(own))).toEqual({ rules: 3, legs: 2, runWide: 0 });
    expect(unexercisedTally(facts([row('a', []), row('b')]))).toEqual({
      rules: 0,
      legs: 0,
      runWide: 0,
    });
  });

  it('counts a run-wide rule once, however many legs list it, and not against any leg', () => {
    expect(unexercisedTally(facts(ROWS))).toEqual({ rules: 4, legs: 2, runWide: 1 });
    const onlyRunWide = [row('a', [gap('wire.error-body', NO_ERROR)]), row('b', [])];
    expect(unexercisedTally(facts(onlyRunWide))).toEqual({ rules: 1, legs: 0, runWide: 1 });
  });

  it('does not count a run-wide rule the host checks judged, held or not', () => {
    for (const ok of [true, false]) {
      expect(unexercisedTally(facts(ROWS, checks([errorBody(ok)])))).toEqual({
        rules: 3,
        legs: 2,
        runWide: 0,
      });
    }
  });

  it('does not count a run-wide rule another leg judged', () => {
    const judgedElsewhere = [...ROWS, row('any-rule-unchanged', [], [errorBody(true)])];
    expect(unexercisedTally(facts(judgedElsewhere)).runWide).toBe(0);
  });

  it('reads as a line, singular and plural, with the run-wide rules apart', () => {
    expect(unexercisedLine(facts(ROWS))).toBe('3 rules unexercised on 2 legs, and 1 run-wide rule');
    expect(unexercisedLine(facts([row('a', [gap('x', 'y')])]))).toBe('1 rule unexercised on 1 leg');
    expect(unexercisedLine(facts([row('a', [gap('wire.error-body', NO_ERROR)])]))).toBe(
      '1 run-wide rule unexercised',
    );
    expect(unexercisedLine(facts([row('a', [])]))).toBe('every applicable rule was exercised');
  });

  it('gives a run-wide rule once, with how many legs left it and whether host checks ran', () => {
    expect(runWideGaps(facts(ROWS))).toEqual([
      gap('wire.error-body', `${NO_ERROR} (on 2 legs; the run has no host checks)`),
    ]);
    const differing = [
      row('a', [gap('wire.error-body', NO_ERROR)]),
      row('b', [gap('wire.error-body', 'every error body seen was larger than the suite keeps')]),
    ];
    expect(runWideGaps(facts(differing, checks([])))).toEqual([
      gap(
        'wire.error-body',
        `${NO_ERROR}; every error body seen was larger than the suite keeps (on 2 legs; the host checks judged it on no answer either)`,
      ),
    ]);
  });
});

describe('renderMarkdown', () => {
  // Rendered before each test rather than once: a mutation run credits what a test ran only to it.
  let markdown = '';
  beforeEach(() => {
    markdown = markdownOf(reportOf(ROWS));
  });

  it("gives the count under the closing line, and each leg's own count in the table", () => {
    expect(markdown).toMatch(
      /\*\*PASS; 4 passed, 0 failed, 0 blocked, 0 skipped; not certified: [^*]+\*\* · openwop-eval-gate-conformance 0\.1\.0\n\nNot exercised: 3 rules unexercised on 2 legs, and 1 run-wide rule\.\n/,
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

  it("lists each leg's own unexercised rules with why under it, and nothing under a leg with none", () => {
    expect(markdown).toContain(
      'Not exercised on openwop.requirement.0246.mean-gated:\n\n' +
        '- `events.cursor`: every event came on the first page \\| once\n' +
        '- `limits.figures`: the host reported no figure',
    );
    expect(markdown).not.toContain('Not exercised on openwop.requirement.0246.suite-gated');
    expect(markdown).not.toContain('Not exercised on openwop.requirement.0246.gated-fields-shape');
  });

  it('lists a run-wide rule nothing judged once, under the host checks, and on no leg', () => {
    expect(markdown.split('`wire.error-body`')).toHaveLength(2);
    expect(markdown).toContain(
      '## Host checks\n\nThe run made no host checks.\n\nNot judged:\n\n' +
        `- \`wire.error-body\`: ${NO_ERROR} (on 2 legs; the run has no host checks)`,
    );
    const withChecks = markdownOf(reportOf(ROWS, { hostChecks: checks([]) }));
    expect(withChecks).toContain('0 held, 0 SHOULD warnings, 1 unexercised, 0 inapplicable.');
    expect(withChecks.split('`wire.error-body`')).toHaveLength(2);
  });

  it('says nothing of a run-wide rule the host checks judged', () => {
    const judged = markdownOf(reportOf(ROWS, { hostChecks: checks([errorBody(true)]) }));
    expect(judged).not.toContain('wire.error-body');
    expect(judged).toContain('Not exercised: 3 rules unexercised on 2 legs.');
    expect(judged).toContain('1 held, 0 SHOULD warnings, 0 unexercised, 0 inapplicable.');
  });
});

describe('renderJunit', () => {
  it('names a run-wide rule nothing judged once, in the system-out, and in no test case', () => {
    const junit = junitOf(reportOf(ROWS));
    expect(junit.match(/unexercised wire\.error-body: /g)).toHaveLength(1);
    const cases = junit.split('<system-out>')[0] ?? '';
    expect(cases).not.toContain('wire.error-body');
    expect(junit).toMatch(
      /<system-out>[^<]*host checks:\nunexercised wire\.error-body: no error answer was seen/,
    );
    expect(junitOf(reportOf(ROWS, { hostChecks: checks([errorBody(true)]) }))).not.toContain(
      'wire.error-body',
    );
  });
});
