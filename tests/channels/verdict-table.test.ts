// One verdict, every channel: each combination a CI job meets is built from row data, given its
// certification (signed as a host would sign it, where the case says so), and rendered through
// every channel. The exit code and the certification are written by hand per case; every
// channel must then say the same thing: the closing line, the summary's first line, JUnit (which
// must also validate against the JUnit XSD), the badge and the action's step outputs.

import { describe, expect, it } from 'vitest';
import { BADGE_MESSAGE_LIMIT, badgeFor } from '../../lib/report/render/badge.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import { JUNIT_FILE, renderJunit } from '../../lib/report/render/junit.ts';
import { renderMarkdown } from '../../lib/report/render/markdown.ts';
import type { EvalGateReport, ReasonCode, ReportRow } from '../../lib/report/report.ts';
import { NOT_SELECTED } from '../../lib/report/run-options.ts';
import type { RunOptions } from '../../lib/report/run-record.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import {
  certificationClause,
  closingLineOf,
  headline,
  runVerdict,
  stepOutputs,
} from '../../lib/report/verdict/run-verdict.ts';
import { certifiedReport } from '../../lib/report/verify/signature.ts';
import { EXIT } from '../../lib/report/verdict/verdict.ts';
import type { InlineGeneratedRecord } from '../../lib/types.ts';
import type { HostKey } from './support.ts';
import {
  broken,
  HOST_LEGS,
  hostKey,
  junitCounts,
  junitProblemsOfEach,
  KEY_ID,
  passingRows,
  reportWith,
  TRIAL_LEGS,
} from './support.ts';

const KEY = hostKey();
const TOTAL = passingRows().length;
const FIRST_HOST = HOST_LEGS[0]?.id ?? '';
/** FIRST_HOST as a leading cause names it, without the prefix every id shares. */
const SHORT_HOST = FIRST_HOST.split('.').at(-1) ?? '';

interface Case {
  readonly name: string;
  readonly build: (key: HostKey) => EvalGateReport;
  /** Whether the host's key signs the report. */
  readonly signed: boolean;
  readonly exit: number;
  readonly certified: boolean;
  /** Every reason code the certification must give, in order. */
  readonly reasons: readonly ReasonCode[];
  /** Words the badge must show: the cause, named. */
  readonly badge: string;
  readonly color: string;
  /** The one leading cause the closing line opens with after the result; none when it passes. */
  readonly lead?: RegExp;
}

function withRows(edit: (rows: ReportRow[]) => ReportRow[]): ReportRow[] {
  return edit(passingRows());
}

/** The passing rows with the pack's record edited; passingRows records its cases inline. */
function withPack(edit: (pack: InlineGeneratedRecord) => InlineGeneratedRecord): ReportRow[] {
  return withRows((rows) =>
    rows.map((r) => {
      if (r.generated === undefined) return r;
      if (!('cases' in r.generated)) throw new Error('passingRows records its pack inline');
      return { ...r, generated: edit(r.generated) };
    }),
  );
}

function replace(rows: ReportRow[], id: string, row: Partial<ReportRow>): ReportRow[] {
  return rows.map((r) => (r.id === id ? { ...r, ...row } : r));
}

function withOptions(
  rows: readonly ReportRow[],
  key: HostKey,
  options: RunOptions,
  overrides: Partial<EvalGateReport> = {},
): EvalGateReport {
  return reportWith(rows, key, { ...runRecord(options, rows), ...overrides });
}

const failingRow: Partial<ReportRow> = {
  disposition: 'executed-fail',
  reason: '1 MUST finding failed: task.passed',
  findings: [broken('task.passed')],
};

const BASELINE = { file: 'expected-failures.yaml', sha256: 'a'.repeat(64) };
/** A baseline that excuses the first host leg: stale when that leg passes. */
const FIRST_HOST_EXCUSED = {
  ...BASELINE,
  entries: [{ requirement: FIRST_HOST, reason: 'tracked as ticket HOST-7' }],
};

const CASES: readonly Case[] = [
  {
    name: 'signed and clean',
    build: (key) => reportWith(passingRows(), key),
    signed: true,
    exit: EXIT.ok,
    certified: true,
    reasons: [],
    badge: `certified ${TOTAL}/${TOTAL}`,
    color: 'brightgreen',
  },
  {
    name: 'unsigned',
    build: (key) => reportWith(passingRows(), key),
    signed: false,
    exit: EXIT.ok,
    certified: false,
    reasons: ['unsigned'],
    badge: 'not signed',
    color: 'yellow',
  },
  {
    name: 'inapplicable without strict',
    build: (key) =>
      reportWith(
        withRows((rows) =>
          rows.map((r) =>
            r.fixtureId === undefined
              ? r
              : {
                  ...r,
                  disposition: 'inapplicable',
                  assertions: 0,
                  findings: [],
                  reason: 'host does not advertise agents.evalSuite',
                },
          ),
        ),
        key,
        { strict: false },
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['strict-off', 'inapplicable', 'nothing-driven'],
    badge: 'not strict +2',
    color: 'yellow',
  },
  {
    name: 'strict with an opt-out',
    build: (key) =>
      reportWith(
        withRows((rows) =>
          rows.map((r) =>
            TRIAL_LEGS.some((l) => l.id === r.id)
              ? {
                  ...r,
                  disposition: 'skipped',
                  assertions: 0,
                  findings: [],
                  reason:
                    'host does not advertise agents.evalSuite.trials; agents.evalSuite.trials is opted out in OPENWOP_OPTED_OUT_PROFILES',
                }
              : r,
          ),
        ),
        key,
        { optedOut: ['agents.evalSuite.trials'] },
      ),
    signed: false,
    exit: EXIT.ok,
    certified: false,
    reasons: ['unsigned'],
    badge: 'not signed',
    color: 'yellow',
  },
  {
    name: 'strict without the pack',
    build: (key) =>
      reportWith(
        withRows((rows) => rows.filter((r) => r.id !== GENERATED_REQUIREMENT)),
        key,
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['pack-not-driven'],
    badge: 'no pack',
    color: 'yellow',
  },
  {
    name: 'strict with a smaller pack than the set names',
    build: (key) =>
      reportWith(
        withPack((pack) => ({ ...pack, count: 2, cases: pack.cases.slice(0, 2) })),
        key,
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['pack-not-driven'],
    badge: 'no pack',
    color: 'yellow',
  },
  {
    name: 'strict with one case of the pack driven alone',
    build: (key) =>
      reportWith(
        withPack((pack) => ({
          ...pack,
          case: pack.cases[0]?.fixtureId ?? '',
          cases: pack.cases.slice(0, 1),
        })),
        key,
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['pack-not-driven'],
    badge: 'no pack',
    color: 'yellow',
  },
  {
    name: 'strict with the pack opted out',
    build: (key) =>
      reportWith(
        withRows((rows) => rows.filter((r) => r.id !== GENERATED_REQUIREMENT)),
        key,
        { optedOut: ['generated-pack'] },
      ),
    signed: false,
    exit: EXIT.ok,
    certified: false,
    reasons: ['unsigned'],
    badge: 'not signed',
    color: 'yellow',
  },
  {
    name: 'a baselined failure',
    build: (key) =>
      withOptions(
        withRows((rows) => replace(rows, FIRST_HOST, failingRow)),
        key,
        {
          baseline: FIRST_HOST_EXCUSED,
        },
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['failed', 'baseline'],
    badge: 'baseline',
    color: 'yellow',
  },
  {
    name: 'a stale baseline entry',
    build: (key) =>
      withOptions(passingRows(), key, {
        baseline: FIRST_HOST_EXCUSED,
      }),
    signed: true,
    exit: EXIT.failed,
    certified: false,
    reasons: ['run-fails', 'baseline'],
    badge: 'stale baseline',
    color: 'red',
    lead: new RegExp(`^1 stale baseline entry, first ${SHORT_HOST}: remove it from `),
  },
  {
    name: 'the SHOULD gate with a leg warning',
    build: (key) =>
      withOptions(
        withRows((rows) =>
          replace(rows, FIRST_HOST, {
            findings: [broken('task.passed', 'SHOULD'), broken('wire.error-body', 'SHOULD')],
          }),
        ),
        key,
        { failOn: 'should' },
      ),
    signed: true,
    exit: EXIT.failed,
    certified: false,
    reasons: ['run-fails'],
    badge: 'SHOULD warnings',
    color: 'red',
    lead: new RegExp(`^2 SHOULD warnings fail the run, first task\\.passed in ${SHORT_HOST}$`),
  },
  {
    name: 'the SHOULD gate with a host-check warning',
    build: (key) =>
      withOptions(
        passingRows(),
        key,
        { failOn: 'should' },
        {
          hostChecks: {
            probes: [],
            findings: [broken('wire.unauthenticated-refused', 'SHOULD')],
            unexercised: [],
            inapplicable: [],
          },
        },
      ),
    signed: true,
    exit: EXIT.failed,
    certified: false,
    reasons: ['run-fails'],
    badge: 'SHOULD warnings',
    color: 'red',
    lead: /^1 SHOULD warning fail the run, first wire\.unauthenticated-refused \(host check\)$/,
  },
  {
    name: 'a partial run',
    build: (key) =>
      withOptions(
        withRows((rows) =>
          rows.map((r) =>
            r.id === FIRST_HOST
              ? r
              : { ...r, disposition: 'skipped', assertions: 0, findings: [], reason: NOT_SELECTED },
          ),
        ),
        key,
        { selection: { only: [FIRST_HOST], skip: [] } },
      ),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['partial'],
    badge: 'partial',
    color: 'yellow',
  },
  {
    name: 'the embedded host',
    build: (key) =>
      reportWith(passingRows(), key, {
        target: {
          baseUrl: 'http://127.0.0.1:9',
          embedded: true,
          implementation: { name: 'acme-host', version: '1.2.0' },
        },
      }),
    signed: true,
    exit: EXIT.ok,
    certified: false,
    reasons: ['embedded'],
    badge: 'embedded host',
    color: 'lightgrey',
  },
  {
    name: 'a blocked run',
    build: (key) =>
      reportWith(
        withRows((rows) =>
          rows.map((r) =>
            r.fixtureId === undefined
              ? r
              : {
                  ...r,
                  disposition: 'blocked',
                  assertions: 0,
                  findings: [],
                  reason: 'POST /v1/runs: connection reset',
                },
          ),
        ),
        key,
      ),
    signed: true,
    exit: EXIT.blocked,
    certified: false,
    reasons: ['blocked', 'nothing-driven'],
    badge: `${HOST_LEGS.length} blocked`,
    color: 'orange',
    lead: new RegExp(
      `^${HOST_LEGS.length} of ${TOTAL} blocked \\(POST /v1/runs: connection reset\\)$`,
    ),
  },
  {
    name: 'a failed requirement',
    build: (key) =>
      reportWith(
        withRows((rows) => replace(rows, FIRST_HOST, failingRow)),
        key,
      ),
    signed: true,
    exit: EXIT.failed,
    certified: false,
    reasons: ['failed'],
    badge: '1 failed',
    color: 'red',
    lead: new RegExp(`^1 requirement failed, first [\\w.-]+ in ${SHORT_HOST}$`),
  },
];

const RESULT: Readonly<Record<number, string>> = {
  [EXIT.ok]: 'PASS',
  [EXIT.failed]: 'FAIL',
  [EXIT.blocked]: 'BLOCKED',
};

/** Every case's JUnit, put here as each case is collected, so that one xmllint run checks all. */
const CASE_JUNIT = new Map<string, string>();
let caseJunitChecked: Promise<ReadonlyMap<string, readonly string[]>> | undefined;
const caseJunitProblems = async (name: string): Promise<readonly string[] | undefined> =>
  (await (caseJunitChecked ??= junitProblemsOfEach(CASE_JUNIT))).get(name);

describe.each(CASES)('$name', (c) => {
  const report = certifiedReport(c.build(KEY), c.signed ? KEY.privateKey : undefined, KEY_ID);
  const verdict = runVerdict(report);
  CASE_JUNIT.set(c.name, renderJunit(report, verdict));

  it('has the exit code and the certification the case calls for', () => {
    expect(verdict.exitCode).toBe(c.exit);
    expect(verdict.certification.certified).toBe(c.certified);
    expect(verdict.certification.reasons.map((r) => r.code)).toEqual(c.reasons);
    expect(verdict.certification.signer.state).toBe(c.signed ? 'verified' : 'unsigned');
  });

  it('closes with the result and its one cause, then the counts, blocked apart, then every reason', () => {
    const line = closingLineOf(verdict);
    const rows = report.requirements;
    const blocked = rows.filter((r) => r.disposition === 'blocked').length;
    const passed = rows.filter((r) => r.disposition === 'executed-pass').length;
    const [result = '', ...rest] = line.split('; ');
    const [counts = ''] = rest.filter((part) => / passed, /.test(part));
    // The result and its one cause lead, short; the counts and every reason follow.
    expect(result.length).toBeLessThanOrEqual(160);
    if (c.lead === undefined) expect(result).toBe(RESULT[c.exit]);
    else expect(result.slice(`${RESULT[c.exit] ?? ''}: `.length)).toMatch(c.lead);
    expect(result.startsWith(RESULT[c.exit] ?? '?')).toBe(true);
    expect(rest.indexOf(counts)).toBe(0);
    expect(counts).toMatch(
      new RegExp(`^${passed} passed, \\d+ failed, ${blocked} blocked, \\d+ skipped$`),
    );
    expect(line.endsWith(certificationClause(verdict))).toBe(true);
    expect(line.includes('embedded reference host')).toBe(report.target.embedded);
    for (const r of verdict.certification.reasons) expect(line).toContain(r.short);
  });

  it("starts the summary with the result, its exit code and every reason's full text", () => {
    const markdown = renderMarkdown(report, verdict);
    const first = markdown.split('\n')[0] ?? '';
    expect(first).toBe(headline(verdict));
    expect(first.startsWith(`Result: ${RESULT[c.exit]} (exit ${c.exit})`)).toBe(true);
    expect(first.includes(c.certified ? '; certified' : '; not certified: ')).toBe(true);
    for (const r of verdict.certification.reasons) expect(markdown).toContain(r.text);
  });

  it('renders JUnit that validates and shows the colour the exit code has', async () => {
    const xml = renderJunit(report, verdict);
    expect(xml).toBe(CASE_JUNIT.get(c.name));
    expect(await caseJunitProblems(c.name), JUNIT_FILE).toEqual([]);
    const counts = junitCounts(xml);
    expect(counts.failures + counts.errors > 0).toBe(c.exit !== EXIT.ok);
    expect(counts.errors > 0).toBe(c.exit === EXIT.blocked);
    expect(xml).toContain(`failures="${counts.failures}" errors="${counts.errors}"`);
  });

  it('gives a badge that is bright green only when certified and names the cause', () => {
    const badge = badgeFor(verdict);
    expect(badge.color).toBe(c.color);
    expect(badge.message).toContain(c.badge);
    expect(badge.message.includes('not certified')).toBe(!c.certified);
    expect(badge.message.length).toBeLessThanOrEqual(BADGE_MESSAGE_LIMIT);
  });

  it("gives the action's outputs the same result, certification and counts", () => {
    const count = (...dispositions: string[]): number =>
      report.requirements.filter((r) => dispositions.includes(r.disposition)).length;
    const [passed, failed, blocked] = [
      count('executed-pass'),
      count('executed-fail'),
      count('blocked'),
    ];
    const skipped = report.requirements.length - passed - failed - blocked;
    expect(stepOutputs(verdict)).toEqual([
      `result=${RESULT[c.exit]}`,
      `certified=${c.certified}`,
      'implementation=acme-host 1.2.0',
      `verdict=${headline(verdict)}`,
      `passed=${passed}`,
      `failed=${failed}`,
      `blocked=${blocked}`,
      `skipped=${skipped}`,
      'flaky=0',
    ]);
  });
});

describe('the only certified combination', () => {
  it('is the signed, clean, strict run against a host that is not embedded', () => {
    const certified = CASES.filter((c) => c.certified).map((c) => c.name);
    expect(certified).toEqual(['signed and clean']);
  });
});

describe('what the table rests on', () => {
  it('an excused failure is a skipped test case that quotes the baseline reason', () => {
    const c = CASES.find((k) => k.name === 'a baselined failure');
    if (c === undefined) throw new Error('the table lost its baselined case');
    const report = certifiedReport(c.build(KEY), KEY.privateKey, KEY_ID);
    const xml = renderJunit(report, runVerdict(report));
    expect(xml).toContain('<skipped message="expected failure: tracked as ticket HOST-7"/>');
    expect(xml).not.toContain('<failure');
  });

  it('the XSD refuses what a JUnit reader would not read', async () => {
    const passing = reportWith(passingRows(), KEY);
    const ok = renderJunit(passing, runVerdict(passing));
    // A failure before a skipped element, and a testcase without a name.
    const misordered = ok.replace(
      /<testcase ([^>]*)\/>/,
      '<testcase $1><failure message="x"/><skipped message="y"/></testcase>',
    );
    const unnamed = ok.replace(/ name="openwop\.requirement[^"]*"/, '');
    const problems = await junitProblemsOfEach(
      new Map([
        ['ok', ok],
        ['misordered', misordered],
        ['unnamed', unnamed],
      ]),
    );
    expect(problems.get('ok')).toEqual([]);
    expect(problems.get('misordered')).not.toEqual([]);
    expect(problems.get('unnamed')).not.toEqual([]);
    // Each complaint is about the document it is given for, as one xmllint run names them.
    expect(problems.get('misordered')?.[0]).toMatch(/^junit-1\.xml:\d+: .*failure/);
    expect(problems.get('unnamed')?.[0]).toMatch(/^junit-2\.xml:\d+: .*name/);
  });

  it('a signed run whose key the discovery does not publish is not certified', () => {
    const other = hostKey();
    const report = certifiedReport(reportWith(passingRows(), KEY), other.privateKey, KEY_ID);
    const verdict = runVerdict(report);
    expect(verdict.certification.signer.state).toBe('unverified');
    expect(verdict.certification.reasons.map((r) => r.code)).toEqual(['unverified']);
    expect(badgeFor(verdict).color).toBe('yellow');
  });

  it('a signed strict run with a declared opt-out is certified, and says what was opted out', () => {
    const c = CASES.find((k) => k.name === 'strict with an opt-out');
    if (c === undefined) throw new Error('the table lost its opt-out case');
    const report = certifiedReport(c.build(KEY), KEY.privateKey, KEY_ID);
    const verdict = runVerdict(report);
    expect(verdict.certification.certified).toBe(true);
    expect(verdict.certification.optOuts).toEqual([
      { gate: 'agents.evalSuite.trials', requirements: TRIAL_LEGS.map((l) => l.id) },
    ]);
    expect(badgeFor(verdict).message).toBe(
      `RFC 0246 certified ${verdict.counts.passed}/${TOTAL}, 1 opt-out`,
    );
    expect(renderMarkdown(report, verdict)).toContain(
      '- opt-out claimed by the host: `agents.evalSuite.trials`',
    );
  });

  it('a signed strict run that opted out of the pack is certified, and lists the claim and the requirement it left out', () => {
    const c = CASES.find((k) => k.name === 'strict with the pack opted out');
    if (c === undefined) throw new Error('the table lost its pack opt-out case');
    const verdict = runVerdict(certifiedReport(c.build(KEY), KEY.privateKey, KEY_ID));
    expect(verdict.certification.certified).toBe(true);
    expect(verdict.certification.optOuts).toEqual([
      { gate: 'generated-pack', requirements: [GENERATED_REQUIREMENT] },
    ]);
  });
});
