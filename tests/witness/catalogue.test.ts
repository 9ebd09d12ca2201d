// The rule catalogue (lib/witness/rules.ts) is what a report cites: every finding carries its
// rule's severity and clause, so each entry must have both in a form a reader can follow.

import { describe, expect, it } from 'vitest';
import { RULES } from '../../lib/eval-gate-witness.ts';

describe('every rule in the catalogue', () => {
  it('is MUST or SHOULD', () => {
    const bad = RULES.filter((r) => r.severity !== 'MUST' && r.severity !== 'SHOULD');
    expect(bad.map((r) => r.id)).toEqual([]);
  });

  it('cites an RFC or a section of the contract', () => {
    const bad = RULES.filter((r) => !/^(RFC \d{4}|contract §\d)/.test(r.ref)).map((r) => r.id);
    expect(bad).toEqual([]);
  });

  it('states what it checks in a sentence', () => {
    const bad = RULES.filter((r) => r.statement.trim().split(' ').length < 5).map((r) => r.id);
    expect(bad).toEqual([]);
  });

  it('has a slug id of a subject and a name', () => {
    const slug = /^[a-z]+(-[a-z]+)*(\.[a-z0-9-]+)?$/;
    expect(RULES.filter((r) => !slug.test(r.id)).map((r) => r.id)).toEqual([]);
  });
});
