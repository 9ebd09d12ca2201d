// In a GitHub Actions step (GITHUB_ACTIONS=true) the run prints one `::error` workflow command per
// failing requirement that fails the run, titled with the requirement id and carrying the row's
// reason, so the check names each failure without opening the log. Elsewhere it prints none, and
// a failure the baseline excuses is not annotated. The host breaks both limit conditions at once.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorAnnotations,
  startFailureAnnotation,
  startFailureOutputs,
  startFailureSummary,
} from '../../lib/report/render/annotations.ts';
import { LEAD_LIMIT } from '../../lib/report/verdict/lead.ts';
import type { EvalGateReport } from '../../lib/report/report.ts';
import type { RunVerdict } from '../../lib/report/verdict/run-verdict.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from '../cli/support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const PREFIX = 'openwop.requirement.0246.';
const SELECTED = ['--only', 'cost-limit-kept,latency-limit-kept,limits-hold'];

let dir = '';
let host: ReferenceHost;
beforeAll(async () => {
  dir = await scratchDir();
  host = await startReferenceHost({
    apiKey: LEAKY_KEY,
    defects: ['cost-limit-dropped', 'latency-limit-dropped'],
  });
});
afterAll(async () => {
  await host.close();
  await removeDir(dir);
});

async function run(name: string, env: Readonly<Record<string, string>>, extra: string[] = []) {
  const reportDir = join(dir, name);
  const result = await cli(
    ['run', '--base-url', host.url, '--report-dir', reportDir, ...SELECTED, ...extra],
    { ...ENV, ...env },
  );
  return { result, report: await readReport(reportDir) };
}

const annotations = (stdout: readonly string[]): string[] =>
  stdout.filter((line) => line.startsWith('::'));

describe('GitHub Actions annotations', () => {
  it(
    'are one ::error per failing requirement, titled with its id, carrying its reason',
    { timeout: 240_000 },
    async () => {
      const { result, report } = await run('annotated', { GITHUB_ACTIONS: 'true' });
      expect(result.code).toBe(1);
      const failing = report.requirements.filter((r) => r.disposition === 'executed-fail');
      expect(failing.map((r) => r.id).sort()).toEqual(
        [`${PREFIX}cost-limit-kept`, `${PREFIX}latency-limit-kept`].sort(),
      );
      const lines = annotations(result.stdout);
      expect(lines).toHaveLength(2);
      for (const row of failing) {
        // A reason holds no CR, LF or %, so it is carried as written; `:` in a title is escaped.
        expect(row.reason).toMatch(/^[^\r\n%]+$/);
        expect(lines).toContain(`::error title=${row.id.replace(/:/g, '%3A')}::${row.reason}`);
      }
      expect(lines.join('\n')).toContain('maxCostUsd');
      expect(lines.join('\n')).toContain('maxP95LatencyMs');
      // The closing line stays last: CI parses it.
      expect(result.stdout.at(-1)).toMatch(
        /^FAIL: 2 requirements failed, first suite\.passed in [\w-]+; \d+ passed, 2 failed, /,
      );
    },
  );

  it('are not printed outside GitHub Actions', { timeout: 240_000 }, async () => {
    const { result } = await run('plain', {});
    expect(result.code).toBe(1);
    expect(annotations(result.stdout)).toEqual([]);
  });

  it(
    'leave out a failure the baseline excuses, which fails nothing',
    { timeout: 240_000 },
    async () => {
      const baseline = join(dir, 'baseline.yml');
      await writeFile(
        baseline,
        'expectedFailures:\n  - requirement: cost-limit-kept\n    reason: ACME-412\n',
      );
      const { result } = await run('excused', { GITHUB_ACTIONS: 'true' }, [
        '--expected-failures',
        baseline,
      ]);
      expect(result.code).toBe(1);
      const lines = annotations(result.stdout);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^::error title=openwop\.requirement\.0246\.latency-limit-kept::/);
    },
  );
});

describe('a blocked run and a run without a report', () => {
  it('a blocked run (exit 3) is one ::error carrying the verdict’s cause', () => {
    const report = { requirements: [] } as unknown as EvalGateReport;
    const verdict = {
      exitCode: 3,
      causes: ['2 of 16 blocked (GET /x: timed out); the suite could not observe'],
      gate: { unexcused: [] },
    } as unknown as RunVerdict;
    expect(errorAnnotations(report, verdict)).toEqual([
      '::error title=eval gate BLOCKED (exit 3)::2 of 16 blocked (GET /x: timed out); the suite could not observe',
    ]);
    expect(errorAnnotations(report, { ...verdict, exitCode: 1 })).toEqual([]);
  });

  it('a run that ends without a report (exit 2) has one ::error and a summary led by its cause', () => {
    expect(startFailureAnnotation('no API key for http://h:1\nsecond')).toBe(
      '::error title=eval gate NOT RUN (exit 2)::no API key for http://h:1%0Asecond',
    );
    expect(startFailureSummary('no API key').split('\n')[0]).toBe(
      'Result: NOT RUN (exit 2): no API key',
    );
  });
});

describe('a cause many requirements share', () => {
  const failing = (ids: readonly string[], reason: string) =>
    ids.map((id) => ({ id: `${PREFIX}${id}`, disposition: 'executed-fail', reason }));
  const verdictOf = (report: EvalGateReport): RunVerdict =>
    ({
      exitCode: 1,
      gate: { unexcused: report.requirements.map((r) => ({ requirement: r.id })) },
    }) as unknown as RunVerdict;

  it('is one ::error counting them, naming five and how many more; a cause of one keeps its id as title', () => {
    const ids = Array.from({ length: 19 }, (_, i) => `leg-${i + 1}`);
    const gate = 'the host does not advertise agents.evalSuite';
    const report = {
      requirements: [...failing(ids, gate), ...failing(['mean-gated'], 'gatedScore MUST be 0')],
    } as unknown as EvalGateReport;
    expect(errorAnnotations(report, verdictOf(report))).toEqual([
      `::error title=eval gate FAIL%3A 19 requirements::19 requirements: ${gate} (leg-1, leg-2, leg-3, leg-4, leg-5, and 14 more)`,
      `::error title=${PREFIX}mean-gated::gatedScore MUST be 0`,
    ]);
  });

  it('two requirements with one cause are one annotation naming both', () => {
    const report = {
      requirements: failing(['cost-limit-kept', 'latency-limit-kept'], 'same'),
    } as unknown as EvalGateReport;
    expect(errorAnnotations(report, verdictOf(report))).toEqual([
      '::error title=eval gate FAIL%3A 2 requirements::2 requirements: same (cost-limit-kept, latency-limit-kept)',
    ]);
  });
});

describe('a run without a report in the step outputs', () => {
  it('sets result NOT RUN, certified false and a verdict of at most 160 characters; the summary keeps the whole cause', () => {
    const long = `the host at https://${'h'.repeat(200)}.example did not answer discovery within 30 s`;
    expect(startFailureOutputs('no API key')).toEqual([
      'result=NOT RUN',
      'certified=false',
      'verdict=Result: NOT RUN (exit 2): no API key',
    ]);
    const verdict = startFailureOutputs(long)
      .find((l) => l.startsWith('verdict='))
      ?.slice(8);
    expect(verdict).toHaveLength(LEAD_LIMIT);
    expect(verdict).toMatch(/^Result: NOT RUN \(exit 2\): the host at https:\/\/h+…$/);
    const summary = startFailureSummary(long).split('\n');
    expect(summary[0]).toBe(verdict);
    expect(summary).toContain(`Cause: ${long}`);
  });
});

describe('an annotation line', () => {
  it('escapes what would end or split the command: % and line breaks, and : , in the title', () => {
    const id = 'odd:id,x';
    const report = {
      requirements: [{ id, disposition: 'executed-fail', reason: '100% wrong\r\nsecond line' }],
    } as unknown as EvalGateReport;
    const verdict = { gate: { unexcused: [{ requirement: id }] } } as unknown as RunVerdict;
    expect(errorAnnotations(report, verdict)).toEqual([
      '::error title=odd%3Aid%2Cx::100%25 wrong%0D%0Asecond line',
    ]);
  });
});
