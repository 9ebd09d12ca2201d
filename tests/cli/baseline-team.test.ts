// Baselines a team can keep: a host-check warning can be listed, one entry names a rule on every
// requirement, an entry that can never match is refused at load, an entry carries its ticket,
// owner and expiry and excuses nothing after that day, and an empty list is no baseline at all.

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOptionsFrom } from '../../cli/run-options.ts';
import { LEGS, REQUIREMENT_PREFIX } from '../../lib/legs.ts';
import type { RowFacts } from '../../lib/report/verdict/baseline.ts';
import { resolveBaseline } from '../../lib/report/verdict/baseline.ts';
import { runRecord } from '../../lib/report/run-record.ts';
import type { CiFacts } from '../../lib/report/verdict/ci-verdict.ts';
import { ciVerdict } from '../../lib/report/verdict/ci-verdict.ts';
import { causesOf } from '../../lib/report/verdict/lead.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import type { ExpectedFailure, FailOn } from '../../lib/report/run-options.ts';
import { readExpectedFailures } from '../../lib/report/run-options.ts';
import { validate } from '../../lib/schemas.ts';
import type { Finding } from '../../lib/types.ts';
import { cli, readReport, removeDir, verifyWritten } from './support.ts';

const MEAN = `${REQUIREMENT_PREFIX}mean-gated`;
const SUITE = `${REQUIREMENT_PREFIX}suite-gated`;

const finding = (rule: string, ok: boolean, severity: Finding['severity']): Finding => ({
  rule,
  ok,
  severity,
  ref: 'contract §6',
  message: `${rule} ${ok ? 'held' : 'failed'}`,
});

/** Two host legs that each warn on wire.version-header and hold task.passed. */
const WARNING_ROWS: readonly RowFacts[] = [MEAN, SUITE].map((id) => ({
  id,
  disposition: 'executed-pass',
  findings: [finding('task.passed', true, 'MUST'), finding('wire.version-header', false, 'SHOULD')],
}));

function facts(
  rows: readonly RowFacts[],
  entries: readonly ExpectedFailure[],
  failOn: FailOn,
  extra: Partial<CiFacts> = {},
): CiFacts {
  // Recorded as a run records it: the verdict reads the baseline's resolution from the record.
  const record = runRecord(
    { failOn, baseline: { file: 'b.yml', sha256: '0'.repeat(64), entries } },
    rows,
    {
      ...(extra.startedAt === undefined ? {} : { day: extra.startedAt.slice(0, 10) }),
      ...(extra.hostChecks === undefined ? {} : { hostFindings: extra.hostChecks.findings }),
    },
  );
  return { requirements: rows, ...record, ...extra } as unknown as CiFacts;
}

const load = (entries: readonly Record<string, unknown>[]): ExpectedFailure[] =>
  readExpectedFailures({ expectedFailures: entries });

describe('a rule on every requirement', () => {
  it('one entry under "*" excuses the rule on each row that fails it', () => {
    const entries = load([{ requirement: '*', rule: 'wire.version-header', reason: 'proxy' }]);
    expect(ciVerdict(facts(WARNING_ROWS, [], 'should')).exitCode).toBe(1);
    const verdict = ciVerdict(facts(WARNING_ROWS, entries, 'should'));
    expect(verdict.exitCode).toBe(0);
    expect(verdict.excused.map((f) => f.requirement)).toEqual([MEAN, SUITE]);
  });

  it('a rule alone means every requirement', () => {
    expect(load([{ rule: 'wire.version-header', reason: 'proxy' }])).toEqual([
      { requirement: '*', rule: 'wire.version-header', reason: 'proxy' },
    ]);
  });

  it('"*" without a rule would excuse everything and is refused', () => {
    expect(() => load([{ requirement: '*', reason: 'all of it' }])).toThrow(
      'expectedFailures[0] names every requirement and no rule, which would excuse every failure; name the rule',
    );
  });

  it('is stale once a row judged the rule and none fails it', () => {
    const rows = WARNING_ROWS.map((r) => ({
      ...r,
      findings: [finding('wire.version-header', true, 'SHOULD')],
    }));
    const entries = load([{ rule: 'wire.version-header', reason: 'proxy' }]);
    expect(resolveBaseline(entries, rows, 'should').entries[0]?.status).toBe('stale');
  });
});

describe('host checks in a baseline', () => {
  const hostChecks = {
    probes: [],
    findings: [finding('wire.unknown-run-not-found', false, 'SHOULD')],
    unexercised: [],
    inapplicable: [],
  };
  const passing = WARNING_ROWS.map((r) => ({ ...r, findings: [] }));

  it('a host-check warning is listed under host-checks and no longer fails --fail-on should', () => {
    const entries = load([
      { requirement: 'host-checks', rule: 'wire.unknown-run-not-found', reason: 'gateway 403' },
    ]);
    expect(ciVerdict(facts(passing, [], 'should', { hostChecks })).exitCode).toBe(1);
    const verdict = ciVerdict(facts(passing, entries, 'should', { hostChecks }));
    expect(verdict.exitCode).toBe(0);
    expect(verdict.hostWarnings).toEqual([]);
    expect(verdict.excused).toEqual([
      { requirement: 'host-checks', rule: 'wire.unknown-run-not-found' },
    ]);
  });

  it('a host-check entry is stale once the check holds, and unobserved when it was not made', () => {
    const entries = load([
      { requirement: 'host-checks', rule: 'wire.unknown-run-not-found', reason: 'gateway 403' },
    ]);
    const held = {
      ...hostChecks,
      findings: [finding('wire.unknown-run-not-found', true, 'SHOULD')],
    };
    const status = (context: Parameters<typeof resolveBaseline>[3]) =>
      resolveBaseline(entries, passing, 'should', context).entries[0]?.status;
    expect(status({ hostFindings: held.findings })).toBe('stale');
    expect(status({ hostFindings: [] })).toBe('unobserved');
  });

  it('a leg rule under host-checks is refused, naming the host-check rules', () => {
    expect(() => load([{ requirement: 'host-checks', rule: 'task.passed', reason: 'x' }])).toThrow(
      /names rule task\.passed, which host-checks never records; the rules it records are wire\.discovery, .*wire\.error-body$/,
    );
  });

  it('a host-check rule under a requirement is refused at load, pointing to host-checks', () => {
    expect(() =>
      load([{ requirement: 'mean-gated', rule: 'wire.unknown-run-not-found', reason: 'x' }]),
    ).toThrow(
      `expectedFailures[0] names rule wire.unknown-run-not-found, which ${MEAN} never records; wire.unknown-run-not-found is judged once per run as a host check: list it under requirement "host-checks"`,
    );
  });

  it('every requirement that drives a host can record wire.error-body, which the host checks also judge', () => {
    expect(
      load([{ requirement: 'mean-gated', rule: 'wire.error-body', reason: 'x' }]),
    ).toHaveLength(1);
    expect(
      load([{ requirement: 'host-checks', rule: 'wire.error-body', reason: 'x' }]),
    ).toHaveLength(1);
  });
});

describe('ticket, owner and expiry', () => {
  const failingRows: readonly RowFacts[] = [
    { id: MEAN, disposition: 'executed-fail', findings: [finding('task.passed', false, 'MUST')] },
  ];
  const entries = load([
    {
      requirement: 'mean-gated',
      rule: 'task.passed',
      reason: 'gate lands in 3.3',
      ticket: 'HOST-7',
      owner: 'evals-team',
      expires: '2026-03-01',
    },
  ]);

  it('an entry keeps its ticket, owner and expiry', () => {
    expect(entries[0]).toMatchObject({
      ticket: 'HOST-7',
      owner: 'evals-team',
      expires: '2026-03-01',
    });
  });

  it('excuses through its last day and nothing the day after, said plainly', () => {
    const on = (day: string) =>
      facts(failingRows, entries, 'must', { startedAt: `${day}T10:00:00.000Z` });
    expect(ciVerdict(on('2026-03-01')).exitCode).toBe(0);
    const after = ciVerdict(on('2026-03-02'));
    expect(after.exitCode).toBe(1);
    expect(after.expired.map((e) => e.status)).toEqual(['expired']);
    const report = on('2026-03-02') as EvalGateReport;
    expect(causesOf(report, ciVerdict(report)).problems).toContain(
      `expired baseline entry: ${MEAN} task.passed (ticket HOST-7, owner evals-team, expires 2026-03-01) excuses nothing since 2026-03-01; fix the failure or renew the entry in b.yml`,
    );
  });

  it('a date that is no calendar day is refused; YAML reads an unquoted date as a Date', () => {
    expect(() => load([{ requirement: 'mean-gated', reason: 'x', expires: '2026-02-30' }])).toThrow(
      'expectedFailures[0] expires on 2026-02-30; give a date as YYYY-MM-DD',
    );
    const fromYaml = load([
      { requirement: 'mean-gated', reason: 'x', expires: new Date('2026-03-01T00:00:00Z') },
    ]);
    expect(fromYaml[0]?.expires).toBe('2026-03-01');
  });

  it('a ticket that is not text is refused', () => {
    expect(() => load([{ requirement: 'mean-gated', reason: 'x', ticket: 7 }])).toThrow(
      'expectedFailures[0] has a ticket that is not a non-empty string',
    );
  });
});

describe('reading a baseline file', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => removeDir(dir)));
  });

  async function fileWith(name: string, text: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'eval-gate-baseline-'));
    dirs.push(dir);
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  }

  it('an empty list is the same as no baseline', async () => {
    const file = await fileWith('empty.yml', 'expectedFailures: []\n');
    const options = await runOptionsFrom({ 'expected-failures': file });
    expect(options.baseline).toBeUndefined();
    const listed = await fileWith(
      'one.yml',
      'expectedFailures:\n  - {requirement: mean-gated, reason: x}\n',
    );
    expect((await runOptionsFrom({ 'expected-failures': listed })).baseline?.entries).toHaveLength(
      1,
    );
  });

  it('a malformed YAML baseline is refused with the whole message on one line', async () => {
    const file = await fileWith(
      'bad.yml',
      'expectedFailures:\n  - requirement: a\n    reason: [x\nnext: 1\n',
    );
    const error = await runOptionsFrom({ 'expected-failures': file }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      new RegExp(
        `^the baseline ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not YAML: .*line \\d+, column \\d+: \\S`,
      ),
    );
    expect(error?.message).not.toMatch(/:$/);
    expect(error?.message).not.toContain('\n');
  });

  it('an unknown requirement lists the valid ones, as --only does', () => {
    const ids = LEGS.map((l) => l.id.slice(REQUIREMENT_PREFIX.length)).join(', ');
    expect(() => load([{ requirement: 'mean-gatd', reason: 'x' }])).toThrow(
      `expectedFailures[0] names mean-gatd, which is no requirement of this suite; the requirements are ${ids}, "host-checks" and "*"`,
    );
  });
});

describe('a team baseline through run and verify', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eval-gate-team-'));
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  it('records an expired entry with its ticket, owner and day, says so, and verifies', async () => {
    const file = join(dir, 'team.yml');
    await writeFile(
      file,
      'expectedFailures:\n  - requirement: mean-gated\n    reason: long fixed\n    ticket: HOST-1\n    owner: evals\n    expires: 2020-01-01\n',
    );
    const reportDir = join(dir, 'run');
    const run = await cli([
      'run',
      '--only',
      'mean-gated',
      '--expected-failures',
      file,
      '--report-dir',
      reportDir,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.at(-1)).toContain(
      'baseline: 0 failing requirements excused (0 rules), 0 stale, 1 expired',
    );
    const report = await readReport(reportDir);
    expect(validate('eval-gate-report', report)).toEqual([]);
    expect(report.baseline?.entries).toEqual([
      {
        requirement: MEAN,
        reason: 'long fixed',
        ticket: 'HOST-1',
        owner: 'evals',
        expires: '2020-01-01',
        status: 'expired',
      },
    ]);
    expect((await verifyWritten(dir, report)).code).toBe(0);
  }, 120_000);
});
