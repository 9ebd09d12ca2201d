// The warm-up crawl transforms exactly the suite's own modules that vitest's worker will ask vite
// for: the entry and what it imports, transitively, once each; never node_modules, builtins or
// what vitest loads natively; and a module that fails to transform does not stop the rest.

import { describe, expect, it } from 'vitest';
import type { Transform } from '../../cli/vitest-warmup.ts';
import { warmTransforms } from '../../cli/vitest-warmup.ts';

const GRAPH: Readonly<Record<string, readonly string[]>> = {
  '/tests/legs.test.ts': ['/node_modules/vitest/dist/index.js', '/lib/run-leg.ts', '/lib/env.ts'],
  '/lib/run-leg.ts': ['/lib/schemas.ts', '/lib/driver.ts', 'node:fs'],
  '/lib/schemas.ts': ['/lib/generated/validators.js'],
  '/lib/driver.ts': ['/lib/run-leg.ts', '/lib/broken.ts'],
  '/lib/env.ts': [],
};

describe('warmTransforms', () => {
  it('transforms each suite module once and skips dependencies, builtins and native modules', async () => {
    const asked: string[] = [];
    const transform: Transform = async (url) => {
      asked.push(url);
      if (url === '/lib/broken.ts') throw new Error('syntax error');
      return { deps: GRAPH[url] ?? [] };
    };
    const warmed = await warmTransforms(transform, '/tests/legs.test.ts', /\/lib\/generated\//);
    expect([...warmed].sort()).toEqual([
      '/lib/broken.ts',
      '/lib/driver.ts',
      '/lib/env.ts',
      '/lib/run-leg.ts',
      '/lib/schemas.ts',
      '/tests/legs.test.ts',
    ]);
    expect(asked.length).toBe(new Set(asked).size);
  });

  it('follows dynamic imports as well as static ones', async () => {
    const transform: Transform = async (url) =>
      url === '/cli/a.ts' ? { deps: [], dynamicDeps: ['/cli/b.ts'] } : { deps: [] };
    expect(await warmTransforms(transform, '/cli/a.ts', /^$/)).toEqual(['/cli/a.ts', '/cli/b.ts']);
  });
});
