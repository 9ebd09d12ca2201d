// A key of realistic length, end to end: `npm run conformance` against the embedded host with a
// 12-character key, as upstream's example hosts are run, leaves no trace of the key in stdout,
// stderr or any file it writes, and redacts nothing that was not the key.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedHost } from '../../cli/embedded-host.ts';
import { REDACTED } from '../../lib/secrets.ts';
import { runProcess } from '../support/process.ts';
import { isolatedEnv, removeDir, scratchDir } from './support.ts';

const KEY = 'sample-token';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir = '';
beforeEach(async () => {
  dir = await scratchDir();
});
afterEach(async () => {
  await removeDir(dir);
});

describe('a 12-character key', () => {
  it('is the key the embedded host demands, so a run with it shows the key was in play', async () => {
    const host = await startEmbeddedHost(KEY);
    try {
      // Discovery is public; a run is not.
      const path = '/runs/no-such-run';
      const refused = await fetch(`${host.url}${path}`, { signal: AbortSignal.timeout(5000) });
      const accepted = await fetch(`${host.url}${path}`, {
        headers: { authorization: `Bearer ${KEY}` },
        signal: AbortSignal.timeout(5000),
      });
      expect([refused.status, accepted.status]).toEqual([401, 404]);
    } finally {
      await host.close();
    }
  });

  it(
    'runs `npm run conformance` against the embedded host, every leg passing, with no trace of the key anywhere',
    { timeout: 150_000 },
    async () => {
      const reportDir = join(dir, 'reports');
      const result = await runProcess(
        'npm',
        ['run', '--silent', 'conformance', '--', '--report-dir', reportDir],
        { cwd: ROOT, deadlineMs: 140_000, env: { ...isolatedEnv(), OPENWOP_API_KEY: KEY } },
      );
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(
        /^PASS; \d+ passed, 0 failed, 0 blocked, 0 skipped; embedded reference host; not certified: /,
      );
      const texts: [string, string][] = [
        ['stdout', result.stdout],
        ['stderr', result.stderr],
      ];
      const files = await readdir(reportDir, { recursive: true });
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) texts.push([name, await readFile(join(reportDir, name), 'utf8')]);
      for (const [where, text] of texts) {
        expect(text, where).not.toContain(KEY);
        expect(text, where).not.toContain(REDACTED);
      }
    },
  );
});
