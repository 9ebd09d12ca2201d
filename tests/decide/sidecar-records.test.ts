// The one reader of a sidecar's records: each line parsed once, a line that holds no record named
// with why, and a lookup by id that stops at the last id it wants unless told to read to the end.

import { describe, expect, it } from 'vitest';
import type { SidecarRead } from '../../lib/decide/sidecar-opener.ts';
import { sidecarLines, sidecarRecordsById } from '../../lib/decide/sidecar-records.ts';

/** A read over literal lines that counts how many were pulled. */
function readOf(lines: readonly string[]): SidecarRead & { pulled: () => number } {
  let pulled = 0;
  return {
    lines: {
      async *[Symbol.asyncIterator]() {
        for (const line of lines) {
          pulled += 1;
          yield await Promise.resolve(line);
        }
      },
    },
    digest: () => ({ sha256: '', bytes: 0 }),
    pulled: () => pulled,
  };
}

const record = (id: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ fixtureId: id, file: `${id}.json`, disposition: 'executed-pass', ...extra });

describe('sidecarLines', () => {
  it('numbers each line from 1 and names a line that holds no record', async () => {
    const seen = [];
    for await (const line of sidecarLines(readOf([record('a'), 'not json', '[1]', 'null']))) {
      seen.push(line.ok ? [line.number, line.record.fixtureId] : [line.number, line.problem]);
    }
    expect(seen).toEqual([
      [1, 'a'],
      [2, 'not JSON'],
      [3, 'not a JSON object'],
      [4, 'not a JSON object'],
    ]);
  });

  it('keeps each line as written, for the replay to compare', async () => {
    const text = record('a');
    for await (const line of sidecarLines(readOf([text]))) expect(line.text).toBe(text);
    expect.assertions(1);
  });
});

describe('sidecarRecordsById', () => {
  it('finds the first record of each wanted id and stops at the last one it wants', async () => {
    const read = readOf([
      record('a'),
      'garbage',
      record('b', { reason: 'first' }),
      record('b'),
      record('c'),
    ]);
    const found = await sidecarRecordsById(read, new Set(['b']));
    expect([...found].map(([id, f]) => [id, f.line, f.record.reason])).toEqual([['b', 3, 'first']]);
    expect(read.pulled()).toBe(3);
  });

  it('reads to the end when asked, so the digest covers the whole file', async () => {
    const read = readOf([record('a'), record('b'), record('c')]);
    const found = await sidecarRecordsById(read, new Set(['a', 'z']), true);
    expect([...found.keys()]).toEqual(['a']);
    expect(read.pulled()).toBe(3);
  });

  it('throws as the read throws', async () => {
    const read: SidecarRead = {
      lines: {
        // eslint-disable-next-line require-yield
        async *[Symbol.asyncIterator]() {
          throw new Error('ends inside a member');
        },
      },
      digest: () => ({ sha256: '', bytes: 0 }),
    };
    await expect(sidecarRecordsById(read, new Set(['a']))).rejects.toThrow('ends inside a member');
  });
});
