// The words every finding is made of (lib/witness/finding.ts): how a host value is named, how a
// number is printed, and when two numbers count as equal. A report is read by a person; these
// pin what that person reads.

import { describe, expect, it } from 'vitest';
import {
  allOf,
  describe as name,
  doesNot,
  eventAt,
  finding,
  member,
  num,
  plural,
  sameNumber,
} from '../../lib/witness/finding.ts';

describe('a host value named in a message', () => {
  it('says nothing, null, the number, the boolean, or the quoted string', () => {
    expect([undefined, null, 0.25, false, true, 'ok'].map(name)).toEqual([
      'nothing',
      'null',
      '0.25',
      'false',
      'true',
      'the string "ok"',
    ]);
  });

  it('quotes at most 40 characters of a string, marking the cut', () => {
    expect(name('x'.repeat(40))).toBe(`the string "${'x'.repeat(40)}"`);
    expect(name(`${'y'.repeat(40)}TAIL`)).toBe(`the string "${'y'.repeat(40)}…"`);
  });

  it('counts an array and never prints an object', () => {
    expect(name([1, 2, 3])).toBe('an array of 3');
    expect(name({ secret: 'sk-1' })).toBe('an object');
    expect(name(() => 1)).toBe('an object');
  });
});

describe('a number printed in a message', () => {
  it('keeps a number of up to 14 characters as it is', () => {
    expect(num(1.234567890123)).toBe('1.234567890123');
    expect(num(12345.67890123)).toBe('12345.67890123');
    expect(num(Infinity)).toBe('Infinity');
  });

  it('rounds a longer number to 12 significant digits', () => {
    expect(num(2 / 3)).toBe('0.666666666667');
    expect(num(1234567.8901234)).toBe('1234567.89012');
  });
});

describe('counting in a message', () => {
  it('uses the singular for exactly one', () => {
    expect([0, 1, 2].map((n) => plural(n, 'trial'))).toEqual(['0 trials', '1 trial', '2 trials']);
  });

  it('agrees the verb with the count', () => {
    expect([1, 2].map(doesNot)).toEqual(['does not', 'do not']);
    const carry = { one: 'carries', many: 'carry' };
    expect([1, 3].map((n) => allOf(n, 'event', carry))).toEqual([
      'the 1 event carries',
      'all 3 events carry',
    ]);
  });
});

describe('an event named in a message', () => {
  it('is named by its sequence, or by its log position when the sequence is unusable', () => {
    expect(eventAt({ sequence: 0 }, 4)).toBe('the event at sequence 0');
    expect(eventAt({ sequence: 7 }, 0)).toBe('the event at sequence 7');
    expect(eventAt({ sequence: -1 }, 2)).toBe('the event at log position 3 (sequence -1)');
    expect(eventAt({ sequence: 1.5 }, 2)).toBe('the event at log position 3 (sequence 1.5)');
    expect(eventAt({ sequence: 2 ** 53 }, 0)).toMatch(/^the event at log position 1 \(sequence /);
    expect(eventAt({}, 0)).toBe('the event at log position 1 (sequence nothing)');
  });
});

describe('two numbers compared by the witness', () => {
  it('are equal within 1e-9 inclusive and not beyond', () => {
    expect(sameNumber(1e-9, 0)).toBe(true);
    expect(sameNumber(-1e-9, 0)).toBe(true);
    expect(sameNumber(2e-9, 0)).toBe(false);
    expect(sameNumber(-2e-9, 0)).toBe(false);
  });

  it('never equal a string, null or an infinity, whatever it reads as', () => {
    expect(sameNumber('0.5', 0.5)).toBe(false);
    expect(sameNumber(null, 0)).toBe(false);
    expect(sameNumber(Infinity, Infinity)).toBe(false);
  });
});

describe('a host member read by the witness', () => {
  it('is an own member of a plain object, never one of an array or the prototype', () => {
    expect(member({ score: 1 }, 'score')).toBe(1);
    expect(member([7], '0')).toBeUndefined();
    expect(member({}, 'toString')).toBeUndefined();
    expect(member(null, 'score')).toBeUndefined();
  });

  it('makes a finding carrying its rule, severity and clause', () => {
    expect(finding('trial.flags', false, 'm')).toEqual({
      rule: 'trial.flags',
      ok: false,
      severity: 'SHOULD',
      ref: expect.stringMatching(/\S/) as unknown,
      message: 'm',
    });
  });
});
