// docs/ci.md's scoped-severity section, run: its baseline block as the page shows it, against the
// reference host with the two faults the block is about (the version header stripped, the cost
// condition dropped). The raised rule fails a run whose rows all pass but one, the lowered one
// keeps that row `executed-fail` without failing the exit code under `--fail-on must`, every
// channel names both, the certification is withheld, and `verify` rebuilds it.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { REQUIREMENT_PREFIX } from '../../lib/legs.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

const ROOT = new URL('../..', import.meta.url);
const HEADING = "### Scoped severity: the baseline's `severity` section";
const ONLY = 'mean-gated,suite-gated,cost-limit-kept';
const COST = `${REQUIREMENT_PREFIX}cost-limit-kept`;

interface Override {
  readonly rule: string;
  readonly requirements: readonly string[];
  readonly severity: string;
}

/** The baseline the section shows: its first YAML block. */
async function pageBaseline(): Promise<{ severity: Override[] }> {
  const page = await readFile(new URL('docs/ci.md', ROOT), 'utf8');
  const section = page.slice(page.indexOf(HEADING));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('the severity section shows no baseline');
  return parse(block) as { severity: Override[] };
}

let dir = '';
let host: ReferenceHost | undefined;
beforeAll(async () => {
  dir = await scratchDir();
  host = await startReferenceHost({
    apiKey: LEAKY_KEY,
    defects: ['version-header-missing', 'cost-limit-dropped'],
  });
});
afterAll(async () => {
  await host?.close();
  await removeDir(dir);
});

async function run(name: string, baseline: unknown, failOn = 'must') {
  const file = join(dir, `${name}.yml`);
  await writeFile(file, stringify(baseline));
  const reportDir = join(dir, name);
  const result = await cli(
    [
      'run',
      '--base-url',
      host?.url ?? '',
      '--only',
      ONLY,
      '--fail-on',
      failOn,
      '--expected-failures',
      file,
      '--report-dir',
      reportDir,
    ],
    { OPENWOP_API_KEY: LEAKY_KEY },
  );
  const read = (f: string): Promise<string> => readFile(join(reportDir, f), 'utf8');
  return {
    result,
    report: await readReport(reportDir),
    junit: await read('eval-gate-junit.xml'),
    summary: await read('eval-gate-summary.md'),
    verify: await cli(['verify', join(reportDir, 'eval-gate-report.json'), '--offline']),
  };
}

describe("docs/ci.md's severity section, run", () => {
  it(
    'the raised rule fails the run, the lowered one keeps its row failed, and every channel names both',
    { timeout: 120_000 },
    async () => {
      const shown = await pageBaseline();
      const { result, report, junit, summary, verify } = await run('as-shown', shown);
      expect(result.code, result.stdout.join('\n')).toBe(1);
      const row = (id: string) => report.requirements.find((r) => r.id === id);
      expect(row(`${REQUIREMENT_PREFIX}mean-gated`)?.disposition).toBe('executed-pass');
      expect(row(COST)?.disposition).toBe('executed-fail');
      expect(report.baseline?.severity?.map((o) => [o.rule, o.severity])).toEqual(
        shown.severity.map((o) => [o.rule, o.severity]),
      );
      const closing = result.stdout.at(-1) ?? '';
      expect(closing).toMatch(
        /^FAIL: \d+ failures? raised to MUST, first wire\.version-header in mean-gated; /,
      );
      expect(closing).toContain(
        '; severity: wire.version-header raised to MUST on mean-gated, suite-gated, suite.passed lowered to SHOULD on cost-limit-kept (2 passed requirements failing the run, 1 failed requirement failing nothing);',
      );
      // The counts and the overrides' parenthesis add up to what JUnit says failed and skipped.
      const counted = (word: string): number =>
        Number(new RegExp(`(\\d+) ${word}`).exec(closing)?.[1] ?? NaN);
      const attr = (a: string): number =>
        Number(new RegExp(`<testsuite [^>]*${a}="(\\d+)"`).exec(junit)?.[1]);
      expect(attr('failures')).toBe(
        counted('failed,') -
          counted('failed requirements? failing nothing') +
          counted('passed requirements? failing the run'),
      );
      expect(attr('skipped')).toBe(
        counted('skipped') + counted('failed requirements? failing nothing'),
      );
      expect(report.certification?.reasons.map((r) => r.code)).toContain('severity-override');
      expect(junit).toMatch(new RegExp(`name="[^"]*cost-limit-kept"[^>]*>\\s*<skipped `));
      expect(summary).toContain('our gateway must keep the header');
      expect(verify.code, verify.stdout.join('\n')).toBe(0);
    },
  );

  it(
    'the lowered rule alone: exit 0 under --fail-on must, 1 under should, the row failed in both',
    { timeout: 120_000 },
    async () => {
      const shown = await pageBaseline();
      const lowered = { severity: shown.severity.filter((o) => o.severity === 'SHOULD') };
      expect(lowered.severity).toHaveLength(1);
      const must = await run('lowered-must', lowered);
      expect(must.result.code, must.result.stdout.join('\n')).toBe(0);
      expect(must.report.requirements.find((r) => r.id === COST)?.disposition).toBe(
        'executed-fail',
      );
      expect(must.result.stdout.at(-1)).toMatch(/^PASS; \d+ passed, 1 failed, /);
      // The one failed row fails nothing, and the closing line says so beside its count.
      expect(must.result.stdout.at(-1)).toContain(
        'lowered to SHOULD on cost-limit-kept (1 failed requirement failing nothing)',
      );
      const should = await run('lowered-should', lowered, 'should');
      expect(should.result.code).toBe(1);
      expect(should.verify.code).toBe(0);
      // Without the section the same host fails the run under must.
      const none = await run('none', { expectedFailures: [] });
      expect(none.result.code).toBe(1);
    },
  );
});
