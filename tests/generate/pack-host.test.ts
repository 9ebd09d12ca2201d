// A generated pack against a real host over HTTP: the reference host seeded from the directory
// `openwop-eval-gate fixtures --generate` writes lists every generated fixture and passes all 200
// in strict mode; a host with one defect fails the pack, naming the fixture, its seed and its
// file; and a host that lists none of them fails every case in strict mode, as it would any
// unlisted fixture.

import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureSet } from '../../cli/fixture-set.ts';
import { FIXTURE_IDS, FIXTURES_DIR } from '../../lib/fixtures.ts';
import { startReferenceHost } from '../../reference-host/index.ts';
import { drivePack, packDir } from './pack-drive.ts';
import { decidePack } from '../../lib/decide/generated-pack.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'generated-pack-'));
  await writeFixtureSet(dir, { count: 200, seed: 1 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a generated pack against the reference host', () => {
  it(
    'a conformant host that seeds the pack passes all 200 in strict mode, not even a SHOULD failing',
    { timeout: 300_000 },
    async () => {
      const cases = await drivePack({ count: 200, seed: 1 }, dir);
      expect(cases).toHaveLength(200);
      const notPassed = cases.filter((c) => c.decision.disposition !== 'executed-pass');
      expect(notPassed.map((c) => `${c.fixtureId}: ${c.decision.reason ?? ''}`)).toEqual([]);
      for (const c of cases) expect(c.decision.assertions).toBeGreaterThan(0);
      const failed = cases.flatMap((c) => c.decision.findings.filter((f) => !f.ok));
      expect(failed.map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
      expect(decidePack(cases).disposition).toBe('executed-pass');
    },
  );

  it(
    'a host with one defect fails the pack, naming the fixture, the seed and the file',
    { timeout: 120_000 },
    async () => {
      // docs/generated-suites.md: the pack of 2 at seed 1 shows a trial verdict taken with >.
      const cases = await drivePack({ count: 20, seed: 1 }, dir, 'trial-verdict-strict');
      const decision = decidePack(cases);
      expect(decision.disposition).toBe('executed-fail');
      const failing = cases.find((c) => c.decision.disposition === 'executed-fail');
      if (failing === undefined) throw new Error('the defect should fail a case of the first 20');
      expect(decision.reason).toContain(`${failing.fixtureId} (seed 1, ${failing.fixtureId}.json)`);
      expect(failing.decision.findings.some((f) => !f.ok && f.severity === 'MUST')).toBe(true);
    },
  );

  it(
    'strict mode fails every generated fixture the host does not list',
    { timeout: 120_000 },
    async () => {
      const cases = await drivePack({ count: 5, seed: 1 });
      for (const c of cases) {
        expect(c.decision.disposition).toBe('executed-fail');
        expect(c.decision.reason).toContain(`host does not list fixture ${c.fixtureId}`);
      }
    },
  );

  it('a host given an extra fixtures directory lists the shipped fixtures and the pack, each once', async () => {
    const extra = await packDir(3, 4);
    // A copy of a shipped fixture, as `fixtures --out` writes beside the pack.
    await copyFile(
      join(FIXTURES_DIR, `${FIXTURE_IDS[0]}.json`),
      join(extra.dir, `${FIXTURE_IDS[0]}.json`),
    );
    const host = await startReferenceHost({ extraFixturesDirs: [extra.dir] });
    try {
      const answer = await fetch(`${host.url}/.well-known/openwop`);
      const listed = ((await answer.json()) as { fixtures: string[] }).fixtures;
      // The default directory first, in file-name order, then the extra one.
      expect(listed.slice(0, FIXTURE_IDS.length).sort()).toEqual([...FIXTURE_IDS].sort());
      expect(listed.slice(FIXTURE_IDS.length)).toEqual([
        'generated-s4-n0001',
        'generated-s4-n0002',
        'generated-s4-n0003',
      ]);
    } finally {
      await host.close();
      await extra.remove();
    }
  });
});
