// A run in a folder an earlier `--repeat` run used removes the pack sidecars that run left, so a
// job that uploads the folder carries only this run's files; nothing else in the folder is touched.

import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeDir, scratchDir } from './support.ts';

let dir = '';
beforeAll(async () => {
  dir = await scratchDir();
});
afterAll(async () => {
  await removeDir(dir);
});

describe('sidecars of an earlier run', () => {
  it('are removed when a new run starts; other files stay', async () => {
    const earlier = [
      'eval-gate-generated.jsonl.gz',
      'eval-gate-generated-2.jsonl.gz',
      'eval-gate-generated-3.jsonl.gz',
    ];
    const kept = ['notes.txt', 'eval-gate-generated-x.jsonl.gz', 'my-eval-gate-generated.jsonl.gz'];
    for (const name of [...earlier, ...kept]) await writeFile(join(dir, name), 'earlier');
    const run = await cli(['run', '--report-dir', dir, '--only', 'mean-gated']);
    expect(run.code, run.stdout.join('\n')).toBe(0);
    const now = await readdir(dir);
    for (const name of earlier) expect(now).not.toContain(name);
    for (const name of kept) expect(now).toContain(name);
    expect(run.stdout.filter((l) => l.startsWith('wrote ')).join('\n')).not.toContain('jsonl.gz');
  });

  it('stay when the run is refused before it starts (exit 2), beside the report they belong to', async () => {
    const name = 'eval-gate-generated-2.jsonl.gz';
    await writeFile(join(dir, name), 'earlier');
    const run = await cli(['run', '--report-dir', dir, '--base-url', 'http://127.0.0.1:1'], {
      OPENWOP_API_KEY: 'sk-test-DO-NOT-LEAK-4242',
    });
    expect(run.code).toBe(2);
    expect(await readdir(dir)).toContain(name);
  });
});
