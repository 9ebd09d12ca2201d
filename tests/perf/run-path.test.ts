// What a run of the hand-written legs loads: the suite's code from two files, the bundle and the
// small loader that hands V8 the bundle's code cache (Node's module loader pays for every file it
// reads and links, a cost of its own on a cold start; the cache spares it compiling the bundle), and
// never the pack generator's dependency fast-check (some 400 KB, tens of milliseconds), which
// only a `--generate` run needs. Read from a real CLI process, the bundle the bins run, through a
// hook that names every module the process resolved or required
// (tests/support/module-graph-hook.mjs): a module graph, so the verdict rests on what was loaded,
// not on how long it took. The embedded run's page is weighed too: a passing run's page stays
// small because it carries no evidence of what held.

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceHost, type ReferenceHost } from '../../reference-host/index.ts';
import { isolatedEnv } from '../cli/support.ts';
import { runProcess } from '../support/process.ts';

const BIN = fileURLToPath(new URL('../../bin/openwop-eval-gate.mjs', import.meta.url));
const HOOK = fileURLToPath(new URL('../support/module-graph-hook.mjs', import.meta.url));
const API_KEY = 'run-path-test-key-0246';
const GENERATOR = '/node_modules/fast-check/';
const CACHE_HOOK = fileURLToPath(new URL('../support/code-cache-use-hook.mjs', import.meta.url));
/** The suite's code a run loads: the loader the bin requires, then the bundle it compiles. */
const BUNDLE = ['/dist/bundle/code-cache.cjs', '/dist/bundle/main.cjs'];

/** The suite's own compiled code a run loaded: every module under its dist/, no package's. */
const compiled = (modules: readonly string[]): string[] =>
  modules
    .filter((url) => url.includes('/dist/') && !url.includes('/node_modules/'))
    .map((url) => url.slice(url.indexOf('/dist/')));

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'run-path-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The CLI run with `args` and `env`; its exit status and every module URL it resolved. */
async function modulesOf(
  name: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ status: number | null; output: string; modules: string[]; codeCache: string[] }> {
  const hooks = ['--import', HOOK, '--import', CACHE_HOOK];
  const run = await runProcess(process.execPath, [...hooks, BIN, 'run', ...args], {
    env: { ...isolatedEnv(), OPENWOP_REPORT_DIR: join(scratch, name), ...env },
    deadlineMs: 120_000,
  });
  const modules = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('module: '))
    .map((line) => line.slice('module: '.length));
  const codeCache = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('code cache: '))
    .map((line) => line.slice('code cache: '.length));
  return { status: run.status, output: run.output, modules, codeCache };
}

describe.concurrent('the run path of a run of hand-written legs', () => {
  let host: ReferenceHost;
  beforeAll(async () => {
    host = await startReferenceHost({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await host.close();
  });

  it("against a host, the bundle and its loader alone load of the suite, the bundle compiled from the build's code cache, and fast-check does not", async () => {
    const run = await modulesOf('host', [], {
      OPENWOP_BASE_URL: host.url,
      OPENWOP_API_KEY: API_KEY,
    });
    expect(run.status, run.output).toBe(0);
    expect(compiled(run.modules)).toEqual(BUNDLE);
    expect(run.modules.filter((url) => url.includes(GENERATOR))).toEqual([]);
    // Compiled from the cache the build wrote for this very bundle, which V8 accepted.
    expect(run.codeCache).toEqual(['used']);
  });

  it('against the embedded host (`npm run conformance`), the bundle and its loader alone load and fast-check does not either, and the passing page is at most 150 KB', async () => {
    const run = await modulesOf('embedded', [], {});
    expect(run.status, run.output).toBe(0);
    // A passing run's page names the rules that held; their evidence stays in the report.
    const page = await stat(join(scratch, 'embedded', 'eval-gate-report.html'));
    expect(page.size).toBeLessThanOrEqual(150 * 1024);
    expect(compiled(run.modules)).toEqual(BUNDLE);
    expect(run.modules.filter((url) => url.includes(GENERATOR))).toEqual([]);
  });

  it('the hook sees fast-check where a run does load it: a generated pack, still from the bundle and its loader alone', async () => {
    const run = await modulesOf('generated', ['--generate', '2', '--seed', '1'], {});
    expect(run.status, run.output).toBe(0);
    expect(run.modules.some((url) => url.includes(GENERATOR))).toBe(true);
    expect(compiled(run.modules)).toEqual(BUNDLE);
  });
});
