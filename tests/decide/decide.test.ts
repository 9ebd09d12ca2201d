// `decide` from literal findings: the exact disposition, assertion count, findings and reason it
// returns, the observation it carries, and the host-fault finding a refused run records.

import { describe, expect, it } from 'vitest';
import { decide, hostFaultFinding } from '../../lib/decide/decide.ts';
import type { Finding, RunObservation } from '../../lib/types.ts';
import { asObservation, gatedObservation } from '../witness/build.ts';

const must = (ok: boolean, rule: string): Finding => ({
  rule,
  ok,
  severity: 'MUST',
  ref: `RFC 0246 §${rule}`,
  message: `${rule} ${ok ? 'held' : 'broke'}`,
});
const should = (ok: boolean, rule: string): Finding => ({ ...must(ok, rule), severity: 'SHOULD' });
const OBSERVATION: RunObservation = asObservation(gatedObservation());

describe('decide', () => {
  it('judges nothing into blocked with no assertion and no finding, carrying the observation', () => {
    expect(decide([])).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'the leg judged nothing: zero assertions is never a pass',
      findings: [],
    });
    expect(decide([], OBSERVATION)).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'the leg judged nothing: zero assertions is never a pass',
      findings: [],
      observation: OBSERVATION,
    });
  });

  it('judges only SHOULD rules into blocked: warnings alone bind nothing, so they cannot pass a leg', () => {
    const onlyWarnings = [should(true, 'A'), should(false, 'B')];
    expect(decide(onlyWarnings, OBSERVATION)).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'the leg judged no MUST rule: zero assertions is never a pass',
      findings: [],
      observation: OBSERVATION,
    });
    expect(decide([...onlyWarnings, must(true, 'C')]).disposition).toBe('executed-pass');
  });

  it('passes with every finding counted and kept, no reason, and the observation only when given', () => {
    const findings = [must(true, 'A'), should(false, 'B')];
    expect(decide(findings)).toStrictEqual({
      disposition: 'executed-pass',
      assertions: 2,
      findings,
    });
    expect(decide(findings, OBSERVATION)).toStrictEqual({
      disposition: 'executed-pass',
      assertions: 2,
      findings,
      observation: OBSERVATION,
    });
  });

  it('fails on one failing MUST, a failing SHOULD beside it not quoted', () => {
    const findings = [should(false, 'S'), must(true, 'A'), must(false, 'B')];
    expect(decide(findings, OBSERVATION)).toStrictEqual({
      disposition: 'executed-fail',
      assertions: 3,
      findings,
      observation: OBSERVATION,
      reason: '1 MUST finding failed: B (RFC 0246 §B): B broke',
    });
  });

  it('quotes exactly three failing MUST findings with no count of more', () => {
    const d = decide([must(false, 'A'), must(false, 'B'), must(true, 'C'), must(false, 'D')]);
    expect(d.reason).toBe(
      '3 MUST findings failed: A (RFC 0246 §A): A broke; B (RFC 0246 §B): B broke; D (RFC 0246 §D): D broke',
    );
  });

  it('quotes the first three of four failing MUST findings and counts one more', () => {
    const d = decide(['A', 'B', 'C', 'D'].map((r) => must(false, r)));
    expect(d.reason).toBe(
      '4 MUST findings failed: A (RFC 0246 §A): A broke; B (RFC 0246 §B): B broke; C (RFC 0246 §C): C broke; and 1 more',
    );
  });
});

describe('decide with a limit whose figures the host does not report', () => {
  it('passes: the figures rule judging nothing is not a gap the verdict relies on', () => {
    const gap = { rule: 'limits.figures', reason: 'the host reported no figure' };
    const d = decide([must(true, 'A')], OBSERVATION, [gap]);
    expect(d.disposition).toBe('executed-pass');
    expect(d.unexercised).toEqual([gap]);
  });

  it('still blocks on any other MUST rule that judged nothing beside it', () => {
    const gaps = [
      { rule: 'limits.figures', reason: 'no figure' },
      { rule: 'suite.passed', reason: 'no summary' },
    ];
    const d = decide([must(true, 'A')], OBSERVATION, gaps);
    expect([d.disposition, d.reason]).toEqual([
      'blocked',
      '1 MUST rule the verdict relies on judged nothing, so the leg cannot pass: suite.passed (no summary)',
    ]);
  });
});

describe('decide puts a cause before what follows from it', () => {
  it('quotes a broken cursor first and marks the count and order findings as following from it', () => {
    const d = decide([
      must(false, 'events.sequence-ascending'),
      must(false, 'events.cursor'),
      must(true, 'events.envelope'),
      must(false, 'events.scored-count'),
    ]);
    expect(d.findings.map((f) => [f.rule, f.consequenceOf])).toEqual([
      ['events.cursor', undefined],
      ['events.envelope', undefined],
      ['events.sequence-ascending', 'events.cursor'],
      ['events.scored-count', 'events.cursor'],
    ]);
    expect(d.reason).toBe(
      '3 MUST findings failed: events.cursor (RFC 0246 §events.cursor): events.cursor broke; ' +
        'events.sequence-ascending (RFC 0246 §events.sequence-ascending), following from events.cursor: events.sequence-ascending broke; ' +
        'events.scored-count (RFC 0246 §events.scored-count), following from events.cursor: events.scored-count broke',
    );
  });

  it('marks nothing when the cause held', () => {
    const findings = [must(true, 'events.cursor'), must(false, 'events.scored-count')];
    expect(decide(findings).findings).toStrictEqual(findings);
  });
});

describe('hostFaultFinding', () => {
  it('is one failing MUST run.served naming the stage and what the host said', () => {
    expect(hostFaultFinding('create', 'POST /runs answered 500')).toEqual({
      rule: 'run.served',
      ok: false,
      severity: 'MUST',
      ref: 'contract §6, §9',
      message:
        'a host that advertises the capability and lists the fixture MUST serve the run (create): POST /runs answered 500',
    });
    expect(decide([hostFaultFinding('poll', 'x')]).disposition).toBe('executed-fail');
  });
});
