// Expected next to reported: against an RFC 0244 host (no gated fields, mean rule and suite passed
// on raw scores), every failing leg's Markdown section and JUnit failure show the witness's
// numbers beside the host's, marked where they differ; a passing leg shows no such block.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalGateReport } from '../../lib/report/report.ts';
import { sideBySide } from '../../lib/report/side-by-side.ts';
import { expectedView } from '../../lib/report/expect.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from '../cli/support.ts';

const MEAN = 'openwop.requirement.0246.mean-gated';
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';

let dir = '';
let markdown = '';
let junit = '';
let report: EvalGateReport;

beforeAll(async () => {
  dir = await scratchDir();
  const host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'unmigrated-0244' });
  try {
    const run = await cli(['run', '--base-url', host.url, '--report-dir', dir], {
      OPENWOP_API_KEY: LEAKY_KEY,
    });
    expect(run.code).toBe(1);
  } finally {
    await host.close();
  }
  markdown = await readFile(join(dir, 'eval-gate-summary.md'), 'utf8');
  junit = await readFile(join(dir, 'eval-gate-junit.xml'), 'utf8');
  report = await readReport(dir);
}, 60_000);

afterAll(async () => {
  await removeDir(dir);
});

function section(name: string): string {
  const start = markdown.indexOf(`## ${name}\n`);
  if (start === -1) throw new Error(`the summary has no "## ${name}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('expected next to reported', () => {
  it('the Markdown section of a failing leg tables the gated numbers the host left out and the verdicts it got wrong', () => {
    const mean = section(MEAN);
    expect(mean).toContain(`openwop-eval-gate expect ${MEAN_FIXTURE}`);
    expect(mean).toContain('| suite | gatedAggregateScore | 0 | absent | ✗ |');
    expect(mean).toContain('| suite | passed | false | true | ✗ |');
    expect(mean).toContain('| task forbidden-in-every-trial | gatedScore | 0 | absent | ✗ |');
    // A number the host got right is shown too, unmarked.
    expect(mean).toContain('| suite | aggregateScore | 1 | 1 |  |');
  });

  it('a passing leg has no comparison block', () => {
    // The server-free leg observes no run, so the summary gives it no section of its own.
    const passing = report.requirements.filter(
      (r) => r.disposition === 'executed-pass' && r.observation !== undefined,
    );
    expect(passing.length).toBeGreaterThan(0);
    for (const row of passing) expect(section(row.id)).not.toContain('Expected next to reported');
  });

  it('the JUnit failure lists the differences first, each with expected and reported', () => {
    const failure = junit.slice(junit.indexOf(`name="${MEAN}"`));
    const body = failure.slice(0, failure.indexOf('</failure>'));
    expect(body).toContain('expected next to reported:');
    const lines = body.slice(body.indexOf('expected next to reported:')).split('\n').slice(1);
    expect(lines.slice(0, 2)).toEqual([
      'suite gatedAggregateScore: expected 0, reported absent ✗',
      'suite passed: expected false, reported true ✗',
    ]);
    expect(lines).toContain('suite aggregateScore: expected 1, reported 1');
  });

  it('reads reported values from the recorded summary and events, not from finding messages', async () => {
    const row = report.requirements.find((r) => r.id === MEAN);
    if (row === undefined) throw new Error('no mean row');
    const loaded = await loadFixture(MEAN_FIXTURE);
    if (!loaded.ok) throw new Error(loaded.reason);
    const expectations = new Map([[MEAN_FIXTURE, expectedView(loaded.fixture)]]);
    const silenced = { ...row, findings: row.findings.map((f) => ({ ...f, message: '' })) };
    expect(sideBySide(silenced, expectations)).toEqual(sideBySide(row, expectations));
    const summary = row.observation?.summary as { tasks: { score: number }[] };
    const edited = structuredClone(row);
    (edited.observation?.summary as typeof summary).tasks[0] = {
      ...summary.tasks[0],
      score: 0.25,
    } as {
      score: number;
    };
    const score = sideBySide(edited, expectations).find(
      (i) => i.subject === 'task forbidden-in-every-trial' && i.field === 'score',
    );
    expect(score).toEqual({
      subject: 'task forbidden-in-every-trial',
      field: 'score',
      expected: '1',
      reported: '0.25',
      agrees: false,
    });
  });
});
