// The referee digest a built run reports is the one npm run build recorded, so the build must
// record exactly what hashing the sources gives: a stale or wrong record would have every verify
// of a fresh report name a different referee. The e2e lane builds dist/ before its tests.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../lib/package-root.ts';
import {
  BUILT_DIGEST_FILE,
  judgingDigestOf,
  readBuiltDigest,
  type Referee,
} from '../../lib/report/verify/referee.ts';

describe('the judging digest recorded at build time', () => {
  it('equals the digest recomputed from the sources, and is the one the built code reports', async () => {
    const recomputed = await judgingDigestOf(PACKAGE_ROOT);
    expect(await readBuiltDigest(BUILT_DIGEST_FILE)).toBe(recomputed);
    const built = (await import(
      pathToFileURL(join(PACKAGE_ROOT, 'dist', 'lib', 'report', 'verify', 'referee.js')).href
    )) as { thisReferee: () => Promise<Referee> };
    expect((await built.thisReferee()).judgingDigest).toBe(recomputed);
  });

  it('a record that is missing, not JSON or holds no digest is not read as one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'built-digest-'));
    try {
      const file = join(dir, 'judging-digest.json');
      expect(await readBuiltDigest(file)).toBeUndefined();
      for (const text of ['{', '{"judgingDigest":42}', '{"judgingDigest":"abc"}', 'null']) {
        await writeFile(file, text);
        expect(await readBuiltDigest(file), text).toBeUndefined();
      }
      await writeFile(file, JSON.stringify({ judgingDigest: 'a'.repeat(64) }));
      expect(await readBuiltDigest(file)).toBe('a'.repeat(64));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
