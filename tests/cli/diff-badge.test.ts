// `diff` and `badge` take only reports that verify: a report edited after it was written is named
// and refused (exit 2), as are unreadable input and a wrong command line. A verified report gets
// a shields.io endpoint badge whose message says what withholds its certification
// (tests/channels/verdict-table.test.ts holds every combination).

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGS } from '../../lib/legs.ts';
import { keepAddresses } from '../support/kept-addresses.ts';
import { cli, LEAKY_KEY, readReport, removeDir, scratchDir } from './support.ts';

const kept = keepAddresses();
let dir = '';
let embedded = '';
let hosted = '';
let hostUrl = '';
let tampered = '';
beforeAll(async () => {
  dir = await scratchDir();
  expect((await cli(['run', '--report-dir', join(dir, 'embedded')])).code).toBe(0);
  embedded = join(dir, 'embedded', 'eval-gate-report.json');
  hostUrl = (await kept.host({ apiKey: LEAKY_KEY })).url;
  const env = { OPENWOP_API_KEY: LEAKY_KEY };
  expect(
    (await cli(['run', '--base-url', hostUrl, '--report-dir', join(dir, 'host')], env)).code,
  ).toBe(0);
  hosted = join(dir, 'host', 'eval-gate-report.json');
  const report = await readReport(join(dir, 'host'));
  // A failing row rewritten as a pass: the recomputation catches it.
  const [first, ...rest] = report.requirements;
  if (first === undefined) throw new Error('the report has no rows');
  tampered = join(dir, 'tampered.json');
  await writeFile(
    tampered,
    JSON.stringify({
      ...report,
      requirements: [{ ...first, assertions: first.assertions + 1 }, ...rest],
    }),
  );
}, 60_000);
afterAll(async () => {
  await removeDir(dir);
});

describe('diff', () => {
  it('two reports of the same host: nothing regressed, exit 0, only the closing line', async () => {
    const run = await cli(['diff', hosted, hosted]);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      `no regression: 0 improved, 0 changed, ${LEGS.length} unchanged of ${LEGS.length} compared; 0 rule changes`,
    ]);
    const all = await cli(['diff', hosted, hosted, '--all']);
    expect(all.stdout.filter((l) => l.startsWith('unchanged '))).toHaveLength(LEGS.length);
  });

  it('the embedded host against another is refused, naming the difference: exit 2', async () => {
    const run = await cli(['diff', embedded, hosted, '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toEqual([]);
    expect(run.stderr).toEqual([
      expect.stringMatching(
        /^openwop-eval-gate: diff refuses to compare .* \(OLD\) with .* \(NEW\): the targets differ in kind \(OLD the embedded reference host, NEW http:\/\/127\.0\.0\.1:\d+\/?\): a run of the embedded reference host is no evidence about another host$/,
      ),
    ]);
  });

  it('two embedded runs differ in nothing the legs decided', async () => {
    const run = await cli(['diff', embedded, embedded, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.join('\n'))).toMatchObject({
      scope: { refusals: [], warnings: [], leftOut: [] },
      rules: [],
      numbers: [],
      regressions: [],
    });
  });

  it('a report that does not verify is named and refused: exit 2', async () => {
    for (const argv of [
      ['diff', tampered, hosted],
      ['diff', hosted, tampered],
    ]) {
      const run = await cli(argv);
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
      expect(run.stderr).toEqual([
        expect.stringMatching(
          new RegExp(
            `^openwop-eval-gate: the report ${tampered.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} does not verify, so diff refuses it: `,
          ),
        ),
      ]);
    }
  });

  it('unreadable input and a wrong command line: one line, exit 2', async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'not json');
    expect((await cli(['diff', notJson, hosted])).stderr).toEqual([
      `openwop-eval-gate: the report ${notJson} is not JSON`,
    ]);
    expect(await cli(['diff', hosted])).toMatchObject({
      code: 2,
      stderr: ['openwop-eval-gate: "diff" takes exactly two OLD.json NEW.json; see --help'],
    });
  });
});

describe('badge', () => {
  it('a clean run against a host, neither strict nor signed: yellow, naming both', async () => {
    const out = join(dir, 'badge.json');
    const run = await cli(['badge', hosted, '--out', out]);
    expect(run.code).toBe(0);
    const badge = JSON.parse(await readFile(out, 'utf8')) as unknown;
    const message = `${LEGS.length}/${LEGS.length} not certified: not strict +1`;
    expect(badge).toEqual({
      schemaVersion: 1,
      label: 'OpenWOP eval gate: openwop-reference-host 0.2.0',
      message,
      color: 'yellow',
    });
    expect(run.stdout).toEqual([`wrote ${out}: ${message} (yellow)`]);
  });

  it('the embedded host says so and is never green', async () => {
    const run = await cli(['badge', embedded]);
    const badge = JSON.parse(run.stdout[0] ?? '') as { message: string; color: string };
    expect(badge.message).toContain('not certified: embedded host');
    expect(badge.color).toBe('lightgrey');
  });

  it('a report that does not verify gets no badge: exit 2, named', async () => {
    const out = join(dir, 'never.json');
    const run = await cli(['badge', tampered, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr[0]).toMatch(
      /does not verify, so badge refuses it: requirements\[id=[a-z0-9.-]+\]\.[a-z]+: recorded .*, rebuilt /,
    );
    await expect(readFile(out)).rejects.toThrow();
  });

  it('an unsigned embedded report edited to claim a foreign host and a certification verifies not, and gets no badge', async () => {
    const original = await readReport(join(dir, 'embedded'));
    const upgraded = join(dir, 'upgraded.json');
    await writeFile(
      upgraded,
      JSON.stringify({
        ...original,
        // A host that answers, on loopback: no name to resolve, and the claim fails all the same.
        target: { ...original.target, baseUrl: hostUrl, embedded: false },
        certification: {
          certified: true,
          reasons: [],
          optOuts: [],
          signer: { state: 'unsigned' },
        },
      }),
    );
    const verify = await cli(['verify', upgraded]);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('certification.certified: recorded true, rebuilt false');
    expect(verify.stdout).toContain('certification: not certified: the report does not verify');
    const badge = await cli(['badge', upgraded]);
    expect(badge.code).toBe(2);
    expect(badge.stdout).toEqual([]);
  });
});
