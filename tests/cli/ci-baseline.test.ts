// A host halfway through its migration, in CI: `run --expected-failures` against the RFC 0244
// defect of the reference host with a baseline listing exactly its failures passes the build and
// says how many it excused; the same baseline against a conformant host fails as stale; and
// `diff` between the two reports names every rule that regressed. The reports verify, and an
// edit to what the baseline excused does not.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { validate } from '../../lib/schemas.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { EXPECTED } from '../matrix/expected.ts';
import {
  cli,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  verifyWritten,
  withoutVerdict,
} from './support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const PREFIX = 'openwop.requirement.0246.';

let dir = '';
let unmigrated: ReferenceHost;
let conformant: ReferenceHost;
beforeAll(async () => {
  dir = await scratchDir();
  unmigrated = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'unmigrated-0244' });
  conformant = await startReferenceHost({ apiKey: LEAKY_KEY });
});
afterAll(async () => {
  await unmigrated.close();
  await conformant.close();
  await removeDir(dir);
});

/** Runs against `host` into its own report directory; the run and the report it wrote. */
async function runInto(name: string, host: ReferenceHost, extra: readonly string[] = []) {
  const reportDir = join(dir, name);
  const run = await cli(['run', '--base-url', host.url, '--report-dir', reportDir, ...extra], ENV);
  return {
    run,
    report: await readReport(reportDir),
    path: join(reportDir, 'eval-gate-report.json'),
  };
}

/** Every failing MUST rule of every row, once each: what a baseline must list to excuse them all. */
function failingRules(report: EvalGateReport): { requirement: string; rule: string }[] {
  return report.requirements.flatMap((row) =>
    [...new Set(row.findings.filter((f) => !f.ok && f.severity === 'MUST').map((f) => f.rule))].map(
      (rule) => ({ requirement: row.id, rule }),
    ),
  );
}

describe('a baseline listing exactly the failures of an RFC 0244 host', () => {
  let plain: Awaited<ReturnType<typeof runInto>>;
  let baselined: Awaited<ReturnType<typeof runInto>>;
  let stale: Awaited<ReturnType<typeof runInto>>;
  let listed: { requirement: string; rule: string }[] = [];
  let baselineFile = '';

  beforeAll(async () => {
    plain = await runInto('plain', unmigrated);
    listed = failingRules(plain.report);
    baselineFile = join(dir, 'expected-failures.json');
    const expectedFailures = listed.map((f) => ({
      requirement: f.requirement.slice(PREFIX.length),
      rule: f.rule,
      reason: 'gated scores land with the RFC 0246 migration',
    }));
    await writeFile(baselineFile, JSON.stringify({ expectedFailures }));
    baselined = await runInto('baselined', unmigrated, ['--expected-failures', baselineFile]);
    stale = await runInto('stale', conformant, ['--expected-failures', baselineFile]);
  }, 60_000);

  it('without the baseline the unlisted failures fail the run (exit 1), and the baseline covers the matrix rules', () => {
    expect(plain.run.code).toBe(1);
    for (const [slug, leg] of Object.entries(EXPECTED['unmigrated-0244'])) {
      for (const rule of leg.rules ?? []) {
        expect(listed).toContainEqual({ requirement: `${PREFIX}${slug}`, rule });
      }
    }
  });

  it('with it the run exits 0, says how many it excused, and leaves every disposition as it was', async () => {
    const failing = plain.report.requirements.filter((r) => r.disposition === 'executed-fail');
    expect(baselined.run.code).toBe(0);
    expect(withoutVerdict(baselined.run.stdout.at(-1))).toBe(
      `${LEGS.length - failing.length} passed, ${failing.length} failed, 0 blocked, 0 skipped; ` +
        `baseline: ${failing.length} failing requirements excused (${listed.length} rules), 0 stale`,
    );
    expect(baselined.report.requirements.map((r) => r.disposition)).toEqual(
      plain.report.requirements.map((r) => r.disposition),
    );
    expect(validate('eval-gate-report', baselined.report)).toEqual([]);
    const baseline = baselined.report.baseline;
    expect(baseline?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(baseline?.excused).toEqual(listed);
    expect(baseline?.entries.map((e) => e.status)).toEqual(listed.map(() => 'excusing'));
    expect(baselined.report.certification?.certified).toBe(false);
    expect(baselined.report.certification?.reasons.map((r) => r.code)).toContain('baseline');
    const markdown = await readFile(join(dir, 'baselined', 'eval-gate-summary.md'), 'utf8');
    expect(markdown.split('\n')[0]).toMatch(/^Result: PASS \(exit 0\)/);
    expect(markdown).toContain(
      `> - baseline: failures listed in ${baselineFile} do not fail the run`,
    );
    expect(markdown).toContain(`| ${PREFIX}mean-gated task.passed | excusing |`);
  });

  it('the same baseline against a conformant host fails the run as stale, naming each entry', () => {
    expect(stale.run.code).toBe(1);
    expect(stale.report.requirements.every((r) => r.disposition === 'executed-pass')).toBe(true);
    expect(withoutVerdict(stale.run.stdout.at(-1))).toBe(
      `${LEGS.length} passed, 0 failed, 0 blocked, 0 skipped; baseline: 0 failing requirements excused (0 rules), ${listed.length} stale`,
    );
    for (const f of listed) {
      expect(stale.run.stdout).toContain(
        `stale baseline entry: ${f.requirement} ${f.rule} now holds; remove it from ${baselineFile}`,
      );
    }
    expect(stale.report.baseline?.entries.every((e) => e.status === 'stale')).toBe(true);
  });

  it('both reports verify, and one edited to excuse more than it did does not', async () => {
    expect((await cli(['verify', baselined.path])).code).toBe(0);
    expect((await cli(['verify', stale.path])).code).toBe(0);
    const edited = { ...stale.report, baseline: { ...stale.report.baseline, excused: listed } };
    const verdict = await verifyWritten(dir, edited);
    expect(verdict.code).toBe(1);
    expect(verdict.lines.join('\n')).toMatch(
      /^baseline\.excused\[\d+\]: recorded .*, rebuilt nothing$/m,
    );
  });

  it('diff from the conformant report to the RFC 0244 one exits 1 and names every regressed rule', async () => {
    const diff = await cli(['diff', stale.path, plain.path]);
    expect(diff.code).toBe(1);
    for (const f of listed) {
      expect(diff.stdout).toContain(
        `newly fails ${f.requirement} ${f.rule} (MUST; held before) REGRESSED`,
      );
    }
    const failing = plain.report.requirements.filter((r) => r.disposition === 'executed-fail');
    for (const row of failing) {
      expect(diff.stdout).toContain(`REGRESSED ${row.id}: executed-pass → executed-fail`);
    }
    expect(diff.stdout.at(-1)).toMatch(
      new RegExp(`^${failing.length + listed.length} regressions: `),
    );
    expect(diff.stdout).toContainEqual(
      expect.stringMatching(
        /^number openwop\.requirement\.0246\.mean-gated suite gatedAggregateScore: 0 → absent \(a correct host reports 0\)$/,
      ),
    );

    const back = await cli(['diff', plain.path, stale.path, '--json']);
    expect(back.code).toBe(0);
    const parsed = JSON.parse(back.stdout.join('\n')) as {
      regressions: unknown[];
      rules: { change: string }[];
    };
    expect(parsed.regressions).toEqual([]);
    expect(parsed.rules.map((r) => r.change)).toEqual(listed.map(() => 'newly holds'));
  });
});

describe('baseline entries by requirement, in YAML', () => {
  it('whole-requirement entries excuse every rule of a requirement; one left out still fails the run', async () => {
    const file = join(dir, 'expected-failures.yml');
    const plainReport = (await runInto('yaml-plain', unmigrated)).report;
    const failing = plainReport.requirements.filter((r) => r.disposition === 'executed-fail');
    const [left, ...excused] = failing.map((r) => r.id);
    await writeFile(
      file,
      [
        '# the legs this host has not migrated yet',
        'expectedFailures:',
        ...excused.flatMap((id) => [
          `  - requirement: ${id.slice(PREFIX.length)}`,
          '    reason: not migrated',
        ]),
      ].join('\n'),
    );
    const partly = await runInto('yaml', unmigrated, ['--expected-failures', file]);
    expect(partly.run.code).toBe(1);
    expect(partly.run.stdout.filter((l) => l.startsWith('not excused: '))).toEqual(
      failingRules(plainReport)
        .filter((f) => f.requirement === left)
        .map((f) => `not excused: ${f.requirement} ${f.rule}`),
    );
    expect(withoutVerdict(partly.run.stdout.at(-1))).toMatch(
      new RegExp(
        `; baseline: ${excused.length} failing requirements excused \\(\\d+ rules\\), 0 stale$`,
      ),
    );
  }, 30_000);
});
