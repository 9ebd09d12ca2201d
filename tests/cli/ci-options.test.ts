// The other CI options of `run`: --only and --skip (unselected rows skipped as not selected, the
// run marked partial, a bad selection refused), --fail-on should, and the baseline's
// configuration errors, each one line and exit 2 before anything runs.

import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import type { ReferenceHost } from '../../reference-host/index.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir, withoutVerdict } from './support.ts';

const ENV = { OPENWOP_API_KEY: LEAKY_KEY };
const MEAN = 'openwop.requirement.0246.mean-gated';
const SHAPE = 'openwop.requirement.0246.gated-fields-shape';

let dir = '';
beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

describe('run --only / --skip', () => {
  it('--only drives the named requirements, skips the rest as not selected, and marks a strict run partial', async () => {
    const reportDir = join(dir, 'only');
    const run = await cli([
      'run',
      '--report-dir',
      reportDir,
      '--require-behavior',
      '--only',
      'mean-gated',
      '--only',
      SHAPE,
    ]);
    const report = await readReport(reportDir);
    expect(run.code).toBe(0);
    expect(withoutVerdict(run.stdout.at(-1))).toBe(
      `2 passed, 0 failed, 0 blocked, ${LEGS.length - 2} skipped; partial: 2 of ${LEGS.length} selected`,
    );
    const unselected = report.requirements.filter((r) => r.id !== MEAN && r.id !== SHAPE);
    for (const row of unselected) {
      expect(row).toMatchObject({ disposition: 'skipped', reason: 'not selected', assertions: 0 });
    }
    // One line names every row the selection left out, not a line each.
    const P = 'openwop.requirement.0246.';
    expect(run.stdout.filter((l) => l.includes('not selected'))).toEqual([
      `${unselected.length} requirements not selected: ${unselected.map((r) => r.id.slice(P.length)).join(', ')}`,
    ]);
    expect(report.selection).toEqual({ only: [MEAN, SHAPE], skip: [], selected: [MEAN, SHAPE] });
    expect(report.certification?.reasons.map((r) => r.short)).toContain(
      `partial 2 of ${LEGS.length}`,
    );
    const markdown = await readFile(join(reportDir, 'eval-gate-summary.md'), 'utf8');
    expect(markdown).toContain(`> - partial: 2 of ${LEGS.length} requirements selected`);
    expect((await cli(['verify', join(reportDir, 'eval-gate-report.json')])).code).toBe(0);
  });

  it('--skip leaves out one requirement, comma lists work, and the report verifies', async () => {
    const reportDir = join(dir, 'skip');
    const run = await cli([
      'run',
      '--report-dir',
      reportDir,
      '--skip',
      `${MEAN},all-rule-unchanged`,
    ]);
    const report = await readReport(reportDir);
    expect(run.code).toBe(0);
    expect(report.selection?.selected).toHaveLength(LEGS.length - 2);
    expect(report.requirements.filter((r) => r.reason === 'not selected').map((r) => r.id)).toEqual(
      [MEAN, 'openwop.requirement.0246.all-rule-unchanged'],
    );
    expect((await cli(['verify', join(reportDir, 'eval-gate-report.json')])).code).toBe(0);
  });

  it('an unknown id and an empty selection are configuration errors: one line, exit 2, no report', async () => {
    const reportDir = join(dir, 'refused');
    const unknown = await cli(['run', '--report-dir', reportDir, '--only', 'mean-gatd']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toEqual([
      expect.stringMatching(
        /^openwop-eval-gate: --only mean-gatd names no requirement of this suite; the requirements are mean-gated, /,
      ),
    ]);
    const empty = await cli([
      'run',
      '--report-dir',
      reportDir,
      '--only',
      'mean-gated',
      '--skip',
      'mean-gated',
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toEqual([
      'openwop-eval-gate: --only and --skip leave no requirement selected; select at least one',
    ]);
    await expect(readFile(join(reportDir, 'eval-gate-report.json'))).rejects.toThrow();
  });
});

/**
 * A pass-through proxy in front of `target` that records every POST that created something (a 2xx
 * answer): the host checks' refused creates are not runs.
 */
async function countingProxy(
  target: string,
): Promise<{ url: string; posts: string[]; close: () => Promise<void> }> {
  const posts: string[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (req.method === 'POST' && status >= 200 && status < 300) posts.push(req.url ?? '');
        res.writeHead(status, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('run --only: unselected legs never reach the host', () => {
  it('--only mean-gated creates exactly one run on the host', async () => {
    const host = await startReferenceHost({ apiKey: LEAKY_KEY });
    const proxy = await countingProxy(host.url);
    try {
      const run = await cli(
        [
          'run',
          '--base-url',
          proxy.url,
          '--report-dir',
          join(dir, 'counted'),
          '--only',
          'mean-gated',
        ],
        ENV,
      );
      expect(run.code).toBe(0);
      expect(proxy.posts.filter((p) => p.endsWith('/runs'))).toHaveLength(1);
    } finally {
      await proxy.close();
      await host.close();
    }
  });
});

describe('run --fail-on', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await startReferenceHost({ apiKey: LEAKY_KEY, defect: 'version-header-missing' });
  });
  afterAll(async () => {
    await host.close();
  });

  it('should: a host that passes with SHOULD warnings fails the exit code; must (the default) does not', async () => {
    const base = ['run', '--base-url', host.url];
    const must = await cli([...base, '--report-dir', join(dir, 'must')], ENV);
    expect(must.code).toBe(0);
    const should = await cli(
      [...base, '--report-dir', join(dir, 'should'), '--fail-on', 'should'],
      ENV,
    );
    expect(should.code).toBe(1);
    const warned = LEGS.length - 1;
    expect(withoutVerdict(should.stdout.at(-1))).toBe(
      `${LEGS.length} passed, 0 failed, 0 blocked, 0 skipped; fail-on should: ${warned} SHOULD warnings`,
    );
    const report = await readReport(join(dir, 'should'));
    expect(report.failOn).toBe('should');
    expect((await cli(['verify', join(dir, 'should', 'eval-gate-report.json')])).code).toBe(0);
  });

  it('should, with a baseline excusing the warned rule on every host leg: exit 0', async () => {
    const file = join(dir, 'wire.yml');
    const hostLegs = LEGS.filter((l) => l.fixtureId !== undefined);
    await writeFile(
      file,
      `expectedFailures:\n${hostLegs.map((l) => `  - requirement: ${l.id}\n    rule: wire.version-header\n    reason: the proxy strips it\n`).join('')}`,
    );
    const run = await cli(
      [
        'run',
        '--base-url',
        host.url,
        '--report-dir',
        join(dir, 'excused'),
        '--fail-on',
        'should',
        '--expected-failures',
        file,
      ],
      ENV,
    );
    expect(run.code).toBe(0);
    expect(withoutVerdict(run.stdout.at(-1))).toBe(
      // No requirement failed, so none was excused: the excused rules are SHOULD warnings.
      `${LEGS.length} passed, 0 failed, 0 blocked, 0 skipped; baseline: 0 failing requirements excused (${hostLegs.length} rules), 0 stale; fail-on should: ${hostLegs.length} SHOULD warnings (${hostLegs.length} excused)`,
    );
  });

  it('anything but must, should or none is refused', async () => {
    const run = await cli(['run', '--fail-on', 'may']);
    expect(run).toMatchObject({
      code: 2,
      stderr: ['openwop-eval-gate: --fail-on takes must, should or none'],
    });
  });
});

/** Every leg's slug, in the order of the legs, as a pattern: the list a refusal names. */
const LEG_NAMES = LEGS.map((l) =>
  l.id.replace(/^.*\.0246\./, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
).join(', ');

describe('run --expected-failures: configuration errors', () => {
  const cases: readonly (readonly [string, string, string, RegExp])[] = [
    [
      'an unknown requirement',
      'b1.yml',
      'expectedFailures:\n  - requirement: mean-gatd\n    reason: typo\n',
      new RegExp(
        `b1\\.yml: expectedFailures\\[0\\] names mean-gatd, which is no requirement of this suite; the requirements are ${LEG_NAMES}, "host-checks" and "\\*"$`,
      ),
    ],
    [
      'a rule the requirement never checks',
      'b2.json',
      JSON.stringify({
        expectedFailures: [{ requirement: MEAN, rule: 'task.pased', reason: 'x' }],
      }),
      /expectedFailures\[0\] names rule task\.pased, which openwop\.requirement\.0246\.mean-gated never records; the rules it records are run\.completed-status, .*, run\.served$/,
    ],
    [
      'an entry without a reason',
      'b3.yml',
      'expectedFailures:\n  - requirement: mean-gated\n',
      /expectedFailures\[0\] \(mean-gated\) needs a reason/,
    ],
    ['another shape', 'b4.yml', 'failures: []\n', /the baseline must be \{"expectedFailures"/],
    ['JSON that does not parse', 'b5.json', '{"expectedFailures": [', /b5\.json is not JSON: /],
    [
      'one entry twice',
      'b6.yml',
      'expectedFailures:\n  - {requirement: mean-gated, reason: a}\n  - {requirement: openwop.requirement.0246.mean-gated, reason: b}\n',
      /lists openwop\.requirement\.0246\.mean-gated \* twice/,
    ],
  ];
  for (const [what, name, text, message] of cases) {
    it(`${what}: one line, exit 2`, async () => {
      const file = join(dir, name);
      await writeFile(file, text);
      const run = await cli(['run', '--report-dir', join(dir, name), '--expected-failures', file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(message);
      expect(run.stdout).toEqual([]);
    });
  }

  it('a file that does not exist: one line, exit 2', async () => {
    const run = await cli(['run', '--expected-failures', join(dir, 'nope.yml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([
      expect.stringMatching(/the baseline .*nope\.yml could not be read \(ENOENT\)$/),
    ]);
  });
});
