// The depth scan a report passes before JSON.parse reads it (lib/bounded-input.ts), against the
// rule written out as a loop over every character: any text, hostile or not, gets the same answer.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingBeyond } from '../lib/bounded-input.ts';

/** The rule itself: a quote opens a string, a backslash in one escapes the next character. */
function byEveryCharacter(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      depth += 1;
      if (depth > max) return true;
    } else if (c === '}' || c === ']') depth -= 1;
  }
  return false;
}

describe('nestingBeyond', () => {
  it('answers as the character-by-character rule for any text of quotes, escapes and brackets', () => {
    const text = fc
      .array(fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ' '), { maxLength: 60 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 4 }), (t, max) => {
        expect(nestingBeyond(t, max)).toBe(byEveryCharacter(t, max));
      }),
      { numRuns: 2000 },
    );
  });

  it('measures a string of a million escapes, or an unclosed one, without running out of stack', () => {
    const escapes = '\\"'.repeat(1_000_000);
    expect(nestingBeyond(`[["${escapes}"]]`, 1)).toBe(true);
    expect(nestingBeyond(`[["${escapes}"]]`, 2)).toBe(false);
    expect(nestingBeyond(`["${escapes}[[[[`, 1)).toBe(false);
  });
});
