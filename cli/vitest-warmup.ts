// A vite plugin that transforms the legs file and every suite module it imports as soon as vite's
// server exists. vitest's worker asks for its modules one at a time, each waiting for this thread
// to transform it; started here, the transforms run while the worker thread is still starting,
// and its requests find them done.

import type { Plugin, ViteDevServer } from 'vite';

/** What the crawl needs of a transform: the module's static and dynamic imports, as URLs. */
export type Transform = (url: string) => Promise<{
  readonly deps?: readonly string[];
  readonly dynamicDeps?: readonly string[];
} | null>;

export function warmupPlugin(entry: string, skip: RegExp): Plugin {
  return {
    name: 'openwop-eval-gate:warmup',
    configureServer(server: ViteDevServer) {
      const environment = server.environments.ssr;
      void warmTransforms((url) => environment.transformRequest(url), entry, skip);
    },
  };
}

/**
 * Transforms `entry` (root-relative, `/tests/x.test.ts`) and, transitively, what it imports, and
 * returns the URLs it transformed. Modules under node_modules, builtins and those matching `skip`
 * (what vitest loads natively) are left out. A module that fails to transform is left alone: the
 * worker meets the same error and reports it where it belongs.
 */
export async function warmTransforms(
  transform: Transform,
  entry: string,
  skip: RegExp,
): Promise<readonly string[]> {
  const seen = new Set<string>();
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url) || !url.startsWith('/') || url.includes('/node_modules/') || skip.test(url)) {
      return;
    }
    seen.add(url);
    const result = await transform(url).catch(() => null);
    await Promise.all([...(result?.deps ?? []), ...(result?.dynamicDeps ?? [])].map(visit));
  };
  await visit(entry);
  return [...seen];
}
