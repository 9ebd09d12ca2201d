// docs/ci.md's worked example, run as written: its baseline is written where its command reads
// it, each shell block runs in bash with `npx openwop-eval-gate-host` and `npx openwop-eval-gate`
// resolved to this package's bins (package.json "bin"), and what the page shows must be what the
// run prints and how it exits. Only the port differs: a free one stands in for 8080.

import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_COMMAND, hostBin } from '../support/host-bin.ts';
import { runProcess } from '../support/process.ts';
import { isolatedEnv, LEAKY_KEY, removeDir, scratchDir } from './support.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HEADING = '### A worked example: halfway through the migration';

interface Block {
  readonly lang: string;
  readonly text: string;
}

/** The worked example's section: its heading up to the next heading of the same or a higher level. */
async function section(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'ci.md'), 'utf8');
  const start = page.indexOf(HEADING);
  if (start < 0) throw new Error(`docs/ci.md has no "${HEADING}"`);
  const rest = page.slice(start + HEADING.length);
  const next = rest.search(/\n#{2,3} /);
  return next < 0 ? rest : rest.slice(0, next);
}

function blocks(text: string): Block[] {
  return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    text: m[2] ?? '',
  }));
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `npx NAME` as an installed package answers it: NAME is the package's own bin. */
async function writeShims(dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    bin: Readonly<Record<string, string>>;
  };
  const suiteBin = manifest.bin['openwop-eval-gate'];
  if (suiteBin === undefined) throw new Error('package.json has no openwop-eval-gate bin');
  const shims: Record<string, string> = {
    npx: 'exec "$@"',
    'openwop-eval-gate': `exec "${process.execPath}" "${join(ROOT, suiteBin)}" "$@"`,
    [HOST_COMMAND]: `exec "${process.execPath}" "${hostBin()}" "$@"`,
  };
  await mkdir(dir, { recursive: true });
  for (const [name, body] of Object.entries(shims)) {
    await writeFile(join(dir, name), `#!/bin/sh\n${body}\n`);
    await chmod(join(dir, name), 0o755);
  }
}

let work = '';
let text = '';
let shown: Block[] = [];
beforeAll(async () => {
  work = await scratchDir();
  text = await section();
  shown = blocks(text);
  await writeShims(join(work, 'shims'));
});
afterAll(async () => {
  await removeDir(work);
});

/** The baseline the page shows ACME committing. */
function baseline(): string {
  return shown.find((b) => b.lang === 'yaml' && b.text.startsWith('expectedFailures:'))?.text ?? '';
}

/** Each shell block that starts the host, with the output block after it. */
function runs(): { script: string; output: string[] }[] {
  const out: { script: string; output: string[] }[] = [];
  shown.forEach((block, i) => {
    if (block.lang !== 'sh' || !block.text.includes(`npx ${HOST_COMMAND}`)) return;
    const next = shown[i + 1];
    if (next?.lang !== 'text') throw new Error('a host block is not followed by its output');
    out.push({ script: block.text, output: next.text.trimEnd().split('\n') });
  });
  return out;
}

/** The exit codes the prose states, in order ("exits 0", "now exits 1"). */
function statedExits(): number[] {
  return [...text.replace(/```[\s\S]*?```/g, '').matchAll(/\bexits (\d+)\b/g)].map((m) =>
    Number(m[1]),
  );
}

describe('docs/ci.md worked example', () => {
  it('shows a baseline, two host runs with their output, and an exit code for each', () => {
    expect(baseline()).toMatch(/^expectedFailures:\n/);
    expect(runs()).toHaveLength(2);
    expect(statedExits()).toHaveLength(2);
  });

  // Each run has its own folder and port, and waits on its processes: side by side, not in turn.
  it.concurrent.each([0, 1])(
    'host run %i prints the lines the page shows, the last one last, and exits as the page says',
    { timeout: 360_000 },
    async (index) => {
      const run = runs()[index];
      if (run === undefined) throw new Error(`no run ${index}`);
      const cwd = join(work, `run-${index}`);
      const baselinePath = /--expected-failures (\S+)/.exec(run.script)?.[1];
      if (baselinePath === undefined) throw new Error('the command names no baseline');
      await mkdir(dirname(join(cwd, baselinePath)), { recursive: true });
      await writeFile(join(cwd, baselinePath), shown.find((b) => b.lang === 'yaml')?.text ?? '');
      const port = String(await freePort());
      const script = [
        run.script.replaceAll('8080', port),
        'code=$?',
        // The background host is the last job started; stop it and wait for it.
        'kill "$!" 2>/dev/null',
        'wait',
        'exit "$code"',
      ].join('\n');
      const env = isolatedEnv();
      const result = await runProcess('bash', ['-c', script], {
        cwd,
        deadlineMs: 300_000,
        env: {
          ...env,
          PATH: `${join(work, 'shims')}:${env['PATH'] ?? ''}`,
          OPENWOP_API_KEY: LEAKY_KEY,
        },
      });
      const printed = result.stdout.trimEnd().split('\n');
      expect(result.status, result.stderr).toBe(statedExits()[index]);
      for (const line of run.output) expect(printed).toContain(line);
      expect(printed.at(-1)).toBe(run.output.at(-1));
    },
  );
});
