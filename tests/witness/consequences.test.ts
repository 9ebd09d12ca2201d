// Which failed findings follow from another failure (lib/witness/consequences.ts), from literal
// findings and the catalogue's declared causes.

import { describe, expect, it } from 'vitest';
import { RULES } from '../../lib/eval-gate-witness.ts';
import { causesFirst } from '../../lib/witness/consequences.ts';
import type { Finding } from '../../lib/types.ts';

const f = (rule: string, ok: boolean, consequenceOf?: string): Finding => ({
  rule,
  ok,
  severity: 'MUST',
  ref: 'contract §6',
  message: rule,
  ...(consequenceOf === undefined ? {} : { consequenceOf }),
});

const marks = (findings: readonly Finding[]): [string, string | undefined][] =>
  causesFirst(findings).map((x) => [x.rule, x.consequenceOf]);

describe('causesFirst', () => {
  it('marks a failure whose declared cause failed and lists it after the rest, each group in order', () => {
    expect(
      marks([
        f('events.scored-count', false),
        f('run.completed-status', false),
        f('events.cursor', false),
        f('events.completed-once', true),
      ]),
    ).toEqual([
      ['run.completed-status', undefined],
      ['events.cursor', undefined],
      ['events.completed-once', undefined],
      ['events.scored-count', 'events.cursor'],
    ]);
  });

  it('names the root of a chain: a count after a sequence fault after a cursor fault', () => {
    expect(
      marks([
        f('events.scored-count', false),
        f('events.sequence-ascending', false),
        f('events.cursor', false),
      ]),
    ).toEqual([
      ['events.cursor', undefined],
      ['events.scored-count', 'events.cursor'],
      ['events.sequence-ascending', 'events.cursor'],
    ]);
  });

  it('stops at a cause whose own cause held', () => {
    expect(marks([f('events.scored-count', false), f('events.sequence-ascending', false)])).toEqual(
      [
        ['events.sequence-ascending', undefined],
        ['events.scored-count', 'events.sequence-ascending'],
      ],
    );
  });

  it('recomputes marks instead of trusting them, keeping every other member', () => {
    const extra = { ...f('trial.passed', false, 'events.cursor'), note: 1 } as Finding;
    // Strict: an unmarked finding has no consequenceOf member at all, not one set to undefined.
    expect(causesFirst([extra, f('events.cursor', false)])).toStrictEqual([
      { ...f('trial.passed', false), note: 1 },
      f('events.cursor', false),
    ]);
  });

  it('never marks a finding that held, nor a rule outside the catalogue', () => {
    const findings = [
      f('events.cursor', false),
      f('events.scored-count', true),
      f('run.served', false),
    ];
    expect(causesFirst(findings)).toStrictEqual(findings);
  });

  it('never marks a failure whose declared cause held', () => {
    const findings = [f('events.cursor', true), f('events.scored-count', false)];
    expect(causesFirst(findings)).toStrictEqual(findings);
  });
});

describe('the declared causes', () => {
  it('name rules of the catalogue, never the rule itself, and form no cycle', () => {
    const ids = new Set<string>(RULES.map((r) => r.id));
    const follows = new Map<string, readonly string[]>(
      RULES.map((r) => [r.id, 'follows' in r ? r.follows : []]),
    );
    for (const [id, causes] of follows) {
      for (const cause of causes) {
        expect(ids.has(cause), `${id} follows ${cause}`).toBe(true);
        expect(cause).not.toBe(id);
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      (follows.get(from) ?? []).some(
        (c) => c === to || (!seen.has(c) && (seen.add(c), reaches(c, to, seen))),
      );
    expect([...ids].filter((id) => reaches(id, id))).toEqual([]);
  });
});
