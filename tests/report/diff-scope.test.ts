// What `diff` compares, on literal reports: the move words, which setting differences refuse and
// which are named and worked around, only the requirements both runs ran compared, and the
// Markdown a pull-request comment gets.

import { describe, expect, it } from 'vitest';
import { NEITHER_CERTIFIED } from '../support/certifications.ts';
import { diffReports, moveOf, NO_SIGNING_KEY } from '../../lib/report/diff.ts';
import { renderDiffMarkdown } from '../../lib/report/render/diff-markdown.ts';
import { diffScope } from '../../lib/report/diff-scope.ts';
import type { Certification, EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import type { Disposition } from '../../lib/types.ts';
import { renderDiff } from '../../cli/diff.ts';
import { reportOf } from '../cli/report-example.ts';

const P = 'openwop.requirement.0246.';

const row = (id: string, disposition: Disposition): ReportRow => ({
  id: `${P}${id}`,
  disposition,
  assertions: disposition === 'executed-pass' || disposition === 'executed-fail' ? 1 : 0,
  durationMs: 1,
  ...(disposition === 'executed-pass' ? {} : { reason: 'r' }),
  findings: [],
});

const IDS = ['mean-gated', 'suite-gated', 'any-rule-unchanged', 'all-rule-unchanged'];

/** Every requirement passing, with `changes` applied; `overrides` replaces top-level members. */
function report(
  changes: Readonly<Record<string, Disposition>> = {},
  overrides: Partial<EvalGateReport> = {},
): EvalGateReport {
  return reportOf(
    IDS.map((id) => row(id, changes[id] ?? 'executed-pass')),
    overrides,
  );
}

const selecting = (...ids: string[]): Partial<EvalGateReport> => ({
  selection: { only: ids, skip: [], selected: ids.map((id) => `${P}${id}`) },
});

describe('the move words', () => {
  it('IMPROVED into executed-pass, REGRESSED out of it, CHANGED between the others', () => {
    expect(moveOf('executed-fail', 'executed-pass')).toBe('IMPROVED');
    expect(moveOf('blocked', 'executed-pass')).toBe('IMPROVED');
    expect(moveOf('executed-pass', 'executed-fail')).toBe('REGRESSED');
    expect(moveOf('executed-pass', 'blocked')).toBe('REGRESSED');
    expect(moveOf('executed-fail', 'blocked')).toBe('CHANGED');
    expect(moveOf('inapplicable', 'executed-fail')).toBe('CHANGED');
    expect(moveOf('executed-fail', 'executed-fail')).toBe('unchanged');
  });

  it('only a REGRESSED requirement is a regression', () => {
    const diff = diffReports(
      report({ 'mean-gated': 'executed-fail', 'suite-gated': 'blocked' }),
      report({ 'suite-gated': 'executed-fail', 'any-rule-unchanged': 'executed-fail' }),
      new Map(),
      NEITHER_CERTIFIED,
    );
    expect(diff.requirements.map((r) => [r.id.slice(P.length), r.move])).toEqual([
      ['mean-gated', 'IMPROVED'],
      ['suite-gated', 'CHANGED'],
      ['any-rule-unchanged', 'REGRESSED'],
      ['all-rule-unchanged', 'unchanged'],
    ]);
    expect(diff.regressions).toEqual([`${P}any-rule-unchanged: executed-pass → executed-fail`]);
  });
});

describe('what refuses a comparison', () => {
  it('the embedded reference host against another host', () => {
    const embedded = report({}, { target: { baseUrl: 'embedded', embedded: true } });
    expect(diffScope(embedded, report()).refusals).toEqual([
      'the targets differ in kind (OLD the embedded reference host, NEW http://127.0.0.1:9): a run of the embedded reference host is no evidence about another host',
    ]);
  });

  it('strict mode on in one and off in the other', () => {
    expect(diffScope(report({}, { strict: false }), report()).refusals).toEqual([
      "strict mode differs (off in OLD, on in NEW): a gate decides a row differently in each, so a move would be the mode's, not the host's",
    ]);
  });

  it('different opt-outs, in any order', () => {
    const one = report({}, { optedOut: ['agents.evalSuite.trials'] });
    expect(diffScope(report(), one).refusals).toEqual([
      "the opt-outs differ (OLD none, NEW agents.evalSuite.trials): an opted-out gate decides a row differently, so a move would be the opt-out's, not the host's",
    ]);
    const two = (a: string, b: string): EvalGateReport =>
      report({}, { optedOut: [a, b] as EvalGateReport['optedOut'] });
    expect(
      diffScope(
        two('agents.evalSuite.trials', 'agents.evalSuite.trajectory'),
        two('agents.evalSuite.trajectory', 'agents.evalSuite.trials'),
      ).refusals,
    ).toEqual([]);
  });

  it('nothing, for two runs with the same settings', () => {
    expect(diffScope(report(), report({ 'mean-gated': 'executed-fail' }))).toEqual({
      refusals: [],
      warnings: [],
      compared: IDS.map((id) => `${P}${id}`),
      leftOut: [],
    });
  });
});

describe('what is named and worked around', () => {
  it('a full run against --only mean-gated compares mean-gated alone, and no skip is a regression', () => {
    const only = report(
      {
        'suite-gated': 'skipped',
        'any-rule-unchanged': 'skipped',
        'all-rule-unchanged': 'skipped',
      },
      selecting('mean-gated'),
    );
    const diff = diffReports(report(), only, new Map(), NEITHER_CERTIFIED);
    expect(diff.scope.compared).toEqual([`${P}mean-gated`]);
    expect(diff.regressions).toEqual([]);
    expect(diff.scope.warnings).toEqual([
      'the selections differ (OLD all 4, NEW mean-gated by --only/--skip)',
      'only the 1 requirement both runs ran is compared; 3 left out: suite-gated, any-rule-unchanged, all-rule-unchanged',
    ]);
  });

  it('two selections compare what both ran', () => {
    const a = report({}, selecting('mean-gated', 'suite-gated'));
    const b = report({}, selecting('suite-gated', 'all-rule-unchanged'));
    expect(diffScope(a, b).compared).toEqual([`${P}suite-gated`]);
  });

  it('a requirement only one report has is left out and named', () => {
    const fewer = reportOf([row('mean-gated', 'executed-pass')]);
    const scope = diffScope(fewer, report());
    expect(scope.compared).toEqual([`${P}mean-gated`]);
    expect(scope.leftOut).toEqual(IDS.slice(1).map((id) => `${P}${id}`));
  });

  it('the host address and the suite version, named and compared all the same', () => {
    const other = report(
      {},
      {
        target: { baseUrl: 'http://127.0.0.1:10', embedded: false },
        suite: { name: 'openwop-eval-gate-conformance', version: '0.2.0' },
      },
    );
    const scope = diffScope(report(), other);
    expect(scope.refusals).toEqual([]);
    expect(scope.compared).toHaveLength(IDS.length);
    expect(scope.warnings).toEqual([
      'the host addresses differ (OLD http://127.0.0.1:9, NEW http://127.0.0.1:10): compared as one host',
      'the suite versions differ (OLD 0.1.0, NEW 0.2.0): a fixture or rule may have changed between them',
    ]);
  });

  it('a recorded requirement set is read when present and its absence tolerated', () => {
    const pinned = {
      ...report(),
      requirementSet: { version: '0.1.0', requirements: [`${P}mean-gated`, `${P}suite-gated`] },
    };
    const scope = diffScope(pinned, report());
    expect(scope.warnings[0]).toBe('the requirement sets differ (OLD 0.1.0, NEW not recorded)');
    expect(scope.compared).toEqual([`${P}mean-gated`, `${P}suite-gated`]);
    const versionOnly = { ...report(), requirementSet: '0.1.0' };
    expect(diffScope(versionOnly, report()).warnings).toEqual([
      'the requirement sets differ (OLD 0.1.0, NEW not recorded)',
    ]);
  });
});

describe('the text', () => {
  const diff = diffReports(
    report({ 'mean-gated': 'executed-fail' }),
    report({ 'suite-gated': 'blocked' }),
    new Map(),
    NEITHER_CERTIFIED,
  );

  it('lists only the changes, and every requirement with --all', () => {
    expect(renderDiff(diff, false)).toEqual([
      `IMPROVED  ${P}mean-gated: executed-fail → executed-pass`,
      `REGRESSED ${P}suite-gated: executed-pass → blocked`,
      `1 regression: ${P}suite-gated: executed-pass → blocked`,
    ]);
    expect(renderDiff(diff, true).filter((l) => l.startsWith('unchanged '))).toEqual([
      `unchanged ${P}any-rule-unchanged: executed-pass`,
      `unchanged ${P}all-rule-unchanged: executed-pass`,
    ]);
  });

  it('closes with the counts when nothing regressed', () => {
    const better = diffReports(
      report({ 'mean-gated': 'blocked' }),
      report(),
      new Map(),
      NEITHER_CERTIFIED,
    );
    expect(renderDiff(better, false).at(-1)).toBe(
      'no regression: 1 improved, 0 changed, 3 unchanged of 4 compared; 0 rule changes',
    );
  });
});

describe('the Markdown comment', () => {
  it('a heading with the verdict and a table of the changes', () => {
    const diff = diffReports(
      report({ 'mean-gated': 'executed-fail' }),
      report({ 'suite-gated': 'executed-fail' }),
      new Map(),
      NEITHER_CERTIFIED,
    );
    expect(renderDiffMarkdown(diff, false)).toBe(
      [
        '## RFC 0246 eval gate: 1 requirement regressed',
        '',
        '| requirement | before | after | change |',
        '| --- | --- | --- | --- |',
        '| `mean-gated` | executed-fail | executed-pass | **IMPROVED** |',
        '| `suite-gated` | executed-pass | executed-fail | **REGRESSED** |',
        '',
      ].join('\n'),
    );
    expect(renderDiffMarkdown(diff, true)).toContain(
      '| `all-rule-unchanged` | executed-pass | executed-pass | unchanged |',
    );
  });

  it('a line when nothing changed, and each difference in the settings as a note', () => {
    const other = report({}, { target: { baseUrl: 'http://127.0.0.1:10', embedded: false } });
    const markdown = renderDiffMarkdown(
      diffReports(report(), other, new Map(), NEITHER_CERTIFIED),
      false,
    );
    expect(markdown).toBe(
      [
        '## RFC 0246 eval gate: no regression',
        '',
        '> **Note:** the host addresses differ (OLD http://127.0.0.1:9, NEW http://127.0.0.1:10): compared as one host',
        '',
        'Nothing changed: the 4 requirements compared kept their dispositions, rules and numbers.',
        '',
      ].join('\n'),
    );
  });

  it('says how many improved in the heading when nothing regressed', () => {
    const diff = diffReports(
      report({ 'mean-gated': 'executed-fail' }),
      report(),
      new Map(),
      NEITHER_CERTIFIED,
    );
    expect(renderDiffMarkdown(diff, false).split('\n')[0]).toBe(
      '## RFC 0246 eval gate: no regression, 1 improved',
    );
  });
});

describe('certification on a run that had no signing key', () => {
  const certified: Certification = {
    certified: true,
    reasons: [],
    optOuts: [],
    signer: { state: 'verified', keyId: 'k1' },
  };
  const unsigned: Certification = {
    certified: false,
    reasons: [{ code: 'unsigned', short: 'not signed', text: 'unsigned: nobody vouches' }],
    optOuts: [],
    signer: { state: 'unsigned' },
  };
  const signature = {
    algorithm: 'ed25519',
    keyId: 'k1',
    reportDigest: 'sha256:00',
    value: 'AA',
  } as const;

  it('is not compared when NEW carries no signature: a notice, and no regression while every requirement held', () => {
    const diff = diffReports(report(), report(), new Map(), {
      before: certified,
      after: unsigned,
    });
    expect(diff.certification).toMatchObject({ regressed: false, notCompared: NO_SIGNING_KEY });
    expect(diff.regressions).toEqual([]);
    expect(renderDiff(diff, false)[0]).toBe(`notice: ${NO_SIGNING_KEY}`);
    const markdown = renderDiffMarkdown(diff, false).split('\n');
    expect(markdown[0]).toBe(
      '## RFC 0246 eval gate: no regression (certification not compared: no signing key)',
    );
    expect(markdown).toContain(`> **Notice:** ${NO_SIGNING_KEY}`);
  });

  it('still regresses a requirement that no longer passes', () => {
    const diff = diffReports(report(), report({ 'mean-gated': 'executed-fail' }), new Map(), {
      before: certified,
      after: unsigned,
    });
    expect(diff.certification.regressed).toBe(false);
    expect(diff.regressions).toEqual([`${P}mean-gated: executed-pass → executed-fail`]);
  });

  it('is compared when NEW is signed and its signature does not verify: the certification is lost', () => {
    const diff = diffReports(report(), report({}, { signature }), new Map(), {
      before: certified,
      after: { ...unsigned, signer: { state: 'unverified', why: 'key k1 not published' } },
    });
    expect(diff.certification.notCompared).toBeUndefined();
    expect(diff.certification.regressed).toBe(true);
    expect(diff.regressions[0]).toMatch(/^certification: certified → not certified/);
  });

  it('says nothing when the base was not certified either', () => {
    const diff = diffReports(report(), report(), new Map(), { before: unsigned, after: unsigned });
    expect(diff.certification.notCompared).toBeUndefined();
    expect(renderDiffMarkdown(diff, false).split('\n')[0]).toBe(
      '## RFC 0246 eval gate: no regression',
    );
  });
});
