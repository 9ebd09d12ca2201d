// What the engine says about an error a leg threw: never a second throw while describing it.

import { describe, expect, it } from 'vitest';
import { describeError } from '../../lib/observe/errors.ts';

describe('describeError', () => {
  it('uses an Error message and the string form of anything else', () => {
    expect(describeError(new Error('worker died'))).toBe('worker died');
    expect(describeError(42)).toBe('42');
  });

  it('describes an object that has no string form instead of throwing', () => {
    expect(describeError(Object.create(null))).toBe('an error that cannot be described');
  });
});
