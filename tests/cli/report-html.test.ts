// `openwop-eval-gate report REPORT --html OUT`: the page a run writes beside its report, rebuilt
// from a report that verifies, and refused for one that does not.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';
import { firstFailingCase, runFailingPack } from './failing-pack.ts';
import { keepAddresses } from '../support/kept-addresses.ts';

const kept = keepAddresses();

describe('report --html', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await scratchDir();
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('writes for a verified report the very page the run wrote, and refuses an edited one', async () => {
    const run = await cli(['run', '--report-dir', dir]);
    expect(run.code).toBe(0);
    const written = await readFile(join(dir, 'eval-gate-report.html'), 'utf8');
    expect(written).toMatch(/^<!DOCTYPE html>/);

    const out = join(dir, 'again.html');
    const again = await cli(['report', join(dir, 'eval-gate-report.json'), '--html', out]);
    expect(again).toEqual({ code: 0, stdout: [`wrote ${out}`], stderr: [] });
    expect(await readFile(out, 'utf8')).toBe(written);

    const report = await readReport(dir);
    const edited = join(dir, 'edited.json');
    const [first, ...rest] = report.requirements;
    if (first === undefined) throw new Error('no rows');
    await writeFile(
      edited,
      JSON.stringify({
        ...report,
        requirements: [{ ...first, disposition: 'executed-fail' }, ...rest],
      }),
    );
    const refused = await cli(['report', edited, '--html', join(dir, 'edited.html')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.join('\n')).toMatch(/does not verify, so report refuses it/);

    // A page that cannot be written is the user's folder, said in one line, not a suite bug.
    const nowhere = join(dir, 'missing', 'page.html');
    const unwritable = await cli(['report', join(dir, 'eval-gate-report.json'), '--html', nowhere]);
    expect(unwritable).toEqual({
      code: 2,
      stdout: [],
      stderr: [`openwop-eval-gate: the page could not be written to ${nowhere} (ENOENT)`],
    });
  });

  it('shows a failing generated case as the run decided it, and report --html shows it as verify decides it again, byte for byte', async () => {
    const reportDir = join(dir, 'reports');
    const url = await runFailingPack(dir, reportDir, kept);
    const html = await readFile(join(reportDir, 'eval-gate-report.html'), 'utf8');
    // The run's page shows the findings the run decided; report --html shows the ones verify's
    // replay decides again from the sidecar. Neither page judges a case itself, so the two agree.
    const again = join(dir, 'again.html');
    const rendered = await cli([
      'report',
      join(reportDir, 'eval-gate-report.json'),
      '--html',
      again,
    ]);
    expect(rendered, rendered.stderr.join('\n')).toEqual({
      code: 0,
      stdout: [`wrote ${again}`],
      stderr: [],
    });
    expect(await readFile(again, 'utf8')).toBe(html);
    const block = firstFailingCase(html);
    expect(block).toMatch(
      /<tr class="finding failed"><td><code>[a-z]+\.[a-z-]*score[a-z-]*<\/code>/,
    );
    expect(block).toContain('Trajectories, trial by trial');
    const ids = new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]));
    const targets = [...block.matchAll(/href="#([^"]*)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => !ids.has(t))).toEqual([]);
    // The command the page gives reruns the pack alone: it is the command this test ran, less the
    // report folder, with --only naming the one leg that talks to no host.
    expect(html).toContain(
      `openwop-eval-gate run --only openwop.requirement.0246.gated-fields-shape --base-url ${url} --require-behavior --generate 3 --seed 7`,
    );
  });

  it('a run whose baseline allows a flaky row says what is left to do, with the --repeat to check it', async () => {
    const host = await startReferenceHost({
      apiKey: LEAKY_KEY,
      defect: 'cost-limit-dropped-on-odd-runs',
    });
    const reportDir = join(dir, 'flaky');
    const baseline = join(dir, 'baseline.json');
    await writeFile(
      baseline,
      JSON.stringify({
        expectedFailures: [
          {
            requirement: 'cost-limit-kept',
            outcomes: ['executed-pass', 'executed-fail'],
            reason: 'the cost check races the summary',
          },
        ],
      }),
    );
    try {
      const run = await cli(
        [
          'run',
          '--base-url',
          host.url,
          '--repeat',
          '2',
          '--only',
          'cost-limit-kept,mean-gated',
          '--expected-failures',
          baseline,
          '--report-dir',
          reportDir,
        ],
        { OPENWOP_API_KEY: LEAKY_KEY },
      );
      expect(run.code, run.stdout.join('\n')).toBe(0);
    } finally {
      await host.close();
    }
    const html = await readFile(join(reportDir, 'eval-gate-report.html'), 'utf8');
    const todo = html.slice(html.indexOf('<section id="todo">'), html.indexOf('</section>'));
    expect(todo).not.toContain('Nothing to do');
    expect(todo).toContain('the baseline allows 1 flaky requirement');
    expect(todo).toMatch(
      /<pre class="command">openwop-eval-gate run --only openwop\.requirement\.0246\.cost-limit-kept --base-url \S+ --repeat 2<\/pre>/,
    );
  });

  it('needs --html', async () => {
    const run = await cli(['report', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      'openwop-eval-gate: report needs --html OUT, such as --html eval-gate-report.html',
    ]);
  });
});
