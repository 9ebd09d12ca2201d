// lib/schema-formats.cjs: the formats the generated validators check at run time are ajv-formats'
// own, and date-time, which remembers its answers, answers every text as ajv-formats does: the
// first time and every time after, past the memory's size, and for a text too long to remember.

import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type Format = { readonly validate: (text: string) => boolean } | RegExp;
const require = createRequire(import.meta.url);
const runtime = require('../lib/schema-formats.cjs') as Readonly<Record<string, Format>>;
const { fullFormats } = require('ajv-formats/dist/formats') as {
  readonly fullFormats: Readonly<Record<string, Format>>;
};

const runTimeAnswer = (text: string): boolean =>
  (runtime['date-time'] as { validate: (t: string) => boolean }).validate(text);
const ajvFormatsAnswer = (text: string): boolean =>
  (fullFormats['date-time'] as { validate: (t: string) => boolean }).validate(text);

/** Texts near a timestamp: valid, and broken in one place a calendar or a pattern catches. */
const NEAR = [
  '2026-12-07T20:57:01Z',
  '2026-12-07T20:57:01.123+01:00',
  '2026-12-07t20:57:01z',
  '2026-12-07 20:57:01Z',
  '2024-02-29T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2026-12-07T24:00:00Z',
  '2026-12-07T23:59:60Z',
  '2026-12-07T20:57:01',
  '2026-13-07T20:57:01Z',
  '2026-12-07',
  '',
  `2026-12-07T20:57:01.${'1'.repeat(80)}Z`,
];

describe('the run-time formats', () => {
  it('are ajv-formats’ own, but for date-time', () => {
    expect(Object.keys(runtime).sort()).toEqual(Object.keys(fullFormats).sort());
    for (const name of Object.keys(fullFormats)) {
      if (name !== 'date-time') expect(runtime[name], name).toBe(fullFormats[name]);
    }
    expect(runtime['date-time']).not.toBe(fullFormats['date-time']);
  });

  it('date-time answers as ajv-formats does, asked once and asked again', () => {
    for (const text of [...NEAR, ...NEAR])
      expect(runTimeAnswer(text), text).toBe(ajvFormatsAnswer(text));
    // Both answers occur, so neither a constant nor a memory of one answer passes.
    expect(new Set(NEAR.map(ajvFormatsAnswer))).toEqual(new Set([true, false]));
  });

  it('date-time answers as ajv-formats does for any text, past the size of its memory', () => {
    const stamp = fc
      .date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true })
      .map((d) => d.toISOString());
    const text = fc.oneof(
      stamp,
      stamp.map((s) => s.replace('T', ' ')),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3000 }), (texts) => {
        for (const t of texts) expect(runTimeAnswer(t), t).toBe(ajvFormatsAnswer(t));
      }),
      { numRuns: 20 },
    );
  });

  it('date-time holds at most 1024 answers, however many texts it is asked', () => {
    const held = (runtime['date-time'] as unknown as { remembered: () => number }).remembered;
    for (let i = 0; i < 3000; i += 1) {
      const text = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      expect(runTimeAnswer(text)).toBe(true);
    }
    expect(held()).toBeGreaterThan(0);
    expect(held()).toBeLessThanOrEqual(1024);
    // A text longer than any timestamp is answered, never held.
    const before = held();
    expect(runTimeAnswer(`2026-12-07T20:57:01.${'1'.repeat(80)}Z`)).toBe(true);
    expect(held()).toBe(before);
  });
});
