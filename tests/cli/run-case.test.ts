// `run --generate N --seed S --case ID` and `judge --fixture ID --generate N --seed S`: a case of
// a pack re-driven alone, and a recorded summary judged against that case. Against a host with a
// defect the pack catches on some cases only, the failing case fails alone the same way and the
// judge fails its summary on the same rule; a passing case passes alone; a case or concurrency the
// line cannot mean is one configuration line, exit 2.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePackFiles } from '../../cli/fixture-set.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import { PACK_CONCURRENCY } from '../../lib/decide/pack-request.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../lib/legs.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import { startReferenceHost, type ReferenceHost } from '../../reference-host/index.ts';
import {
  casesOf,
  cli,
  generatedRow,
  LEAKY_KEY,
  readReport,
  removeDir,
  scratchDir,
  verifyWritten,
} from './support.ts';

/** A pack of 12 drives 12 runs on a loaded machine, then a case alone, then verify. */
const RUN_MS = 240_000;
const PACK = ['--generate', '12', '--seed', '1'];
/** The pack beside the one leg that drives no host, as a report's reproduce command runs it. */
const ONLY = ['--only', LEGS.find((l) => l.fixtureId === undefined)?.id ?? ''];
/** Fails `suite.passed` on a suite mean exactly at its threshold: some cases of the pack only. */
const DEFECT = 'strict-greater-than';

function failingRules(row: ReportRow): string[] {
  const rules = row.findings.filter((f) => !f.ok && f.severity === 'MUST').map((f) => f.rule);
  return [...new Set(rules)].sort();
}

let dir = '';
let host: ReferenceHost | undefined;
let argv: string[] = [];
const env = { OPENWOP_API_KEY: LEAKY_KEY };

beforeAll(async () => {
  dir = await scratchDir();
  const packDir = join(dir, 'pack');
  await mkdir(packDir);
  await writePackFiles(packDir, generatePack({ count: 12, seed: 1 }));
  host = await startReferenceHost({
    apiKey: LEAKY_KEY,
    defect: DEFECT,
    extraFixturesDirs: [packDir],
  });
  argv = ['--base-url', host.url, '--require-behavior', ...ONLY];
});

afterAll(async () => {
  await host?.close();
  await removeDir(dir);
});

describe('one generated case, alone', () => {
  it(
    'a failing case of the pack fails alone on the same rules, and judge fails its summary on the same rule',
    async () => {
      const packReports = join(dir, 'pack-reports');
      const pack = await cli([...argv, ...PACK, '--report-dir', packReports], env);
      const packRow = generatedRow(await readReport(packReports));
      const cases = await casesOf(packRow, packReports);
      const failing = cases.filter((c) => c.disposition === 'executed-fail');
      const passing = cases.filter((c) => c.disposition === 'executed-pass');
      expect(pack.code).toBe(1);
      expect(pack.stdout).toContainEqual(expect.stringMatching(/^generated pack: 12 cases in /));
      // The defect shows on some cases and not others, so each case is told apart.
      expect(failing.length).toBeGreaterThan(0);
      expect(passing.length).toBeGreaterThan(0);
      const id = failing[0]?.fixtureId ?? '';

      const aloneReports = join(dir, 'alone-reports');
      const alone = await cli(
        [...argv, ...PACK, '--case', id, '--silent', '--report-dir', aloneReports],
        { ...env, GITHUB_ACTIONS: 'true' },
      );
      const aloneReport = await readReport(aloneReports);
      const aloneRow = generatedRow(aloneReport);
      expect(alone.code).toBe(1);
      // --silent: the closing line alone, after the workflow commands GitHub reads.
      expect(alone.stdout).toEqual([
        expect.stringMatching(`^::error title=${GENERATED_REQUIREMENT}::`),
        expect.stringMatching(/^FAIL: [^;]+; 1 passed, 1 failed, 0 blocked,/),
      ]);
      expect(aloneRow.disposition).toBe('executed-fail');
      expect(aloneRow.generated?.case).toBe(id);
      expect(
        (await casesOf(aloneRow, aloneReports)).map((c) => [c.fixtureId, c.disposition]),
      ).toEqual([[id, 'executed-fail']]);
      const rules = failingRules(aloneRow);
      expect(rules.length).toBeGreaterThan(0);
      if (failing.length === 1) expect(failingRules(packRow)).toEqual(rules);
      // The pack's reason names the case with the rule that fails it alone.
      expect(packRow.reason).toContain(`${id} (seed 1, ${id}.json): ${rules[0] ?? ''}: `);
      // A case alone is not the pack: the run certifies nothing.
      expect(alone.stdout.at(-1)).toContain('generated pack not driven');

      const verified = await verifyWritten(aloneReports, aloneReport);
      expect(verified.lines.at(-1)).toMatch(/every digest matches/);
      expect(verified.code).toBe(0);

      const summary = join(dir, 'failing-summary.json');
      await writeFile(summary, JSON.stringify(failing[0]?.observation?.summary));
      const judged = await cli(['judge', summary, '--fixture', id, ...PACK]);
      expect(judged.code).toBe(1);
      expect(judged.stdout[0]).toMatch(/^executed-fail: /);
      expect(judged.stdout).toContainEqual(expect.stringMatching(`^FAILED ${rules[0] ?? ''} `));

      // The same judge on a passing case's own summary holds.
      const held = passing[0];
      const heldSummary = join(dir, 'passing-summary.json');
      await writeFile(heldSummary, JSON.stringify(held?.observation?.summary));
      const judgedHeld = await cli([
        'judge',
        heldSummary,
        '--fixture',
        held?.fixtureId ?? '',
        ...PACK,
      ]);
      expect(judgedHeld.stdout[0]).toMatch(/^executed-pass: .* 0 MUST failed/);
      expect(judgedHeld.code).toBe(0);
    },
    RUN_MS,
  );

  it(
    'judge REPORT --case ID judges the case from the sidecar, failing and passing as the run did',
    async () => {
      const reports = join(dir, 'judge-case-reports');
      const run = await cli([...argv, ...PACK, '--report-dir', reports], env);
      // Every channel prints the smallest case's command with this run's target and flags, so
      // pasted as printed it drives this host, not the embedded one; the report keeps the
      // command its decision recorded.
      const full = new RegExp(
        `openwop-eval-gate run --only \\S+ --base-url ${host?.url ?? ''} --require-behavior --generate 12 --seed 1 --case generated-s1-n\\d{4}`,
      );
      const rowLine = run.stdout.find((l) => l.includes(GENERATED_REQUIREMENT));
      expect(rowLine).toMatch(full);
      const [markdown, html, json] = await Promise.all(
        ['eval-gate-summary.md', 'eval-gate-report.html', 'eval-gate-report.json'].map((f) =>
          readFile(join(reports, f), 'utf8'),
        ),
      );
      expect(markdown).toMatch(full);
      expect(html).toMatch(full);
      expect(json).not.toMatch(full);
      const report = join(reports, 'eval-gate-report.json');
      const cases = await casesOf(generatedRow(await readReport(reports)), reports);
      const failing = cases.find((c) => c.disposition === 'executed-fail');
      const passing = cases.find((c) => c.disposition === 'executed-pass');
      // Both were observed, so the sidecar holds a summary to judge for each.
      expect(failing?.observation).toBeDefined();
      expect(passing?.observation).toBeDefined();

      const judged = await cli(['judge', report, '--case', failing?.fixtureId ?? '']);
      expect(judged.code, judged.stdout.join('\n')).toBe(1);
      expect(judged.stdout[0]).toMatch(/^executed-fail: /);
      const held = await cli(['judge', report, '--case', passing?.fixtureId ?? '']);
      expect(held.code, held.stdout.join('\n')).toBe(0);
      expect(held.stdout[0]).toMatch(/^executed-pass: /);

      const absent = await cli(['judge', report, '--case', 'generated-s1-n0099']);
      expect(absent.code).toBe(2);
      expect(absent.stderr).toEqual([
        expect.stringMatching(/--case generated-s1-n0099 is not a case the report .* recorded/),
      ]);
      const mixed = await cli(['judge', report, '--case', 'generated-s1-n0001', '--fixture', 'x']);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr[0]).toContain('without --fixture');
    },
    RUN_MS,
  );

  it(
    '--case without --only drives no hand leg: the case beside the one leg that talks to no host',
    async () => {
      const reports = join(dir, 'case-without-only');
      const run = await cli(
        [
          '--base-url',
          host?.url ?? '',
          '--require-behavior',
          ...PACK,
          '--case',
          'generated-s1-n0001',
          '--report-dir',
          reports,
        ],
        env,
      );
      const report = await readReport(reports);
      const executed = report.requirements
        .filter((r) => r.disposition.startsWith('executed'))
        .map((r) => r.id);
      expect(executed.sort()).toEqual([ONLY[1] ?? '', GENERATED_REQUIREMENT].sort());
      expect(report.selection?.only).toEqual([ONLY[1]]);
      expect(run.code, run.stdout.join('\n')).toBe(0);
    },
    RUN_MS,
  );

  it(
    'a passing case passes alone, and the report says it drove that case alone',
    async () => {
      const reports = join(dir, 'passing-alone');
      const run = await cli(
        [...argv, ...PACK, '--case', 'generated-s1-n0001', '--report-dir', reports],
        env,
      );
      const row = generatedRow(await readReport(reports));
      expect(run.code).toBe(0);
      expect(row.disposition).toBe('executed-pass');
      expect(row.generated).toMatchObject({ seed: 1, count: 12, case: 'generated-s1-n0001' });
      expect((await casesOf(row, reports)).map((c) => c.fixtureId)).toEqual(['generated-s1-n0001']);
      expect(run.stdout).toContainEqual(
        expect.stringMatching(
          /^generated pack: 1 case in .* at concurrency 1 .*; generated-s1-n0001 of the pack of 12 at seed 1, driven alone$/,
        ),
      );
    },
    RUN_MS,
  );
});

describe('a case or a concurrency the line cannot mean', () => {
  const ids = 'whose ids are generated-s1-n0001 to generated-s1-n0012';
  const where =
    "the report's generated row names each case, and openwop-eval-gate fixtures --out DIR --generate 12 --seed 1 writes them";
  it.each([
    [
      ['run', '--case', 'generated-s1-n0003'],
      '--case names a case of a generated pack: give --generate N and --seed S, the pack it was drawn from, with it',
    ],
    [
      ['run', ...PACK, '--case', 'generated-s1-n0013'],
      `--case generated-s1-n0013 is not a case of the pack of 12 at seed 1, ${ids}; ${where}`,
    ],
    [
      ['run', ...PACK, '--case', 'generated-s2-n0003'],
      `--case generated-s2-n0003 is not a case of the pack of 12 at seed 1, ${ids}; ${where}`,
    ],
    [
      ['run', ...PACK, '--case', 'generated-s1-n003'],
      `--case takes a generated case id: a case of the pack of 12 at seed 1, ${ids}; ${where}`,
    ],
    [
      ['judge', 's.json', '--fixture', 'generated-s1-n0013', ...PACK],
      `--fixture generated-s1-n0013 is not a case of the pack of 12 at seed 1, ${ids}; ${where}`,
    ],
    [
      ['judge', 's.json', '--fixture', 'mean-gated', ...PACK],
      `--fixture takes a generated case id: a case of the pack of 12 at seed 1, ${ids}; ${where}`,
    ],
    ...['0', '65', 'four', '1.5', '-1'].map((n) => [
      ['run', ...PACK, '--concurrency', n],
      `--concurrency takes how many generated cases are in flight at once, 1 to 64, such as --concurrency ${PACK_CONCURRENCY}`,
    ]),
  ])('%j is refused in one line, exit 2', async (line, message) => {
    const run = await cli(line as string[]);
    expect(run.stderr).toEqual([`openwop-eval-gate: ${message as string}`]);
    expect(run.code).toBe(2);
  });
});
