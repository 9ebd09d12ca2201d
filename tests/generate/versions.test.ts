// Every released generator still draws what it drew when it was released. The digests below were
// printed by each version's own commit (its lib/generate, checked out and run): the sha256 of
// JSON.stringify of the pack, first 12 hex digits. A change to an archived version, or a current
// generator that draws otherwise without becoming a new version, fails here.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePack, packFixtures } from '../../lib/generate/pack.ts';
import { CURRENT_GENERATOR, GENERATOR_VERSIONS, generatorOf } from '../../lib/generate/versions.ts';
import { currentSet } from '../../lib/requirement-sets.ts';

/** Version, the commit whose generator it is, and its packs of 20 at seed 11 and 40 at seed 1. */
const RELEASED = [
  { version: 1, commit: '637f719', s11: '69e7d179eb61', s1: 'e7183e6b2b76' },
  { version: 2, commit: 'd9dcc67', s11: '275e7e9a7737', s1: 'df2b64774e1a' },
  { version: 3, commit: 'f9e8dc1', s11: 'ac84089e6906', s1: '07a004fc7e50' },
  { version: 4, commit: 'f338663', s11: 'e64452162e74', s1: 'd6f27f28c9cc' },
  { version: 5, commit: '009dd1a', s11: '36b9e4295061', s1: '98c6aea2d220' },
] as const;

const digest = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

describe('generator versions', () => {
  it('every version this suite has is one whose draw is pinned here', () => {
    expect(GENERATOR_VERSIONS).toEqual(RELEASED.map((r) => r.version));
  });

  it.each(RELEASED)('v$version draws what commit $commit drew', ({ version, s11, s1 }) => {
    expect(digest(generatePack({ count: 20, seed: 11, generator: version }))).toBe(s11);
    expect(digest(generatePack({ count: 40, seed: 1, generator: version }))).toBe(s1);
    // Drawn lazily, a chunk at a time, it is the same pack.
    const lazy = [...packFixtures({ count: 40, seed: 1, generator: version })];
    expect(digest(lazy)).toBe(s1);
  });

  it("this version's requirement set names the current generator for its pack", () => {
    expect(currentSet().pack.generator).toBe(CURRENT_GENERATOR);
  });

  it('a pack that names no version is drawn by the current one', () => {
    expect(generatePack({ count: 20, seed: 11 })).toEqual(
      generatePack({ count: 20, seed: 11, generator: CURRENT_GENERATOR }),
    );
  });

  it('a version never released draws nothing and says which ones exist', () => {
    expect(generatorOf(0)).toBeUndefined();
    expect(generatorOf(CURRENT_GENERATOR + 1)).toBeUndefined();
    expect(() => generatePack({ count: 1, seed: 1, generator: CURRENT_GENERATOR + 1 })).toThrow(
      `generator version ${CURRENT_GENERATOR + 1} is not one this suite has (1, 2, 3, 4, 5)`,
    );
  });
});
