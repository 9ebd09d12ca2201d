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

describe('decide with a declared limit the host reports no figures for', () => {
  const unjudged = ['the host reports no latencyMs on every task and no eval.scored.latencyMs'];

  it('is inapplicable, naming the missing members, with every finding counted and kept', () => {
    const findings = [must(true, 'A'), should(false, 'B')];
    expect(decide(findings, OBSERVATION, undefined, unjudged)).toStrictEqual({
      disposition: 'inapplicable',
      assertions: 2,
      findings,
      observation: OBSERVATION,
      reason:
        'a declared limit cannot be judged: the host reports no latencyMs on every task and no eval.scored.latencyMs; the suite neither passes nor fails it on a guess',
    });
  });

  it('still fails on a failing MUST: that finding rests on what the host reported, not on a guess', () => {
    const d = decide([must(false, 'A')], OBSERVATION, undefined, unjudged);
    expect([d.disposition, d.reason]).toEqual([
      'executed-fail',
      '1 MUST finding failed: A (RFC 0246 §A): A broke',
    ]);
  });

  it('still blocks with nothing judged, and passes when every limit can be judged', () => {
    expect(decide([], OBSERVATION, undefined, unjudged).disposition).toBe('blocked');
    expect(decide([must(true, 'A')], OBSERVATION, undefined, []).disposition).toBe('executed-pass');
  });

  it('is inapplicable rather than blocked when the figures it lacks also left a MUST rule unexercised', () => {
    const gap = { rule: 'limits.figures', reason: 'the host reported no figure' };
    const d = decide([must(true, 'A')], OBSERVATION, [gap], unjudged);
    expect(d.disposition).toBe('inapplicable');
    expect(d.unexercised).toEqual([gap]);
  });

  it('joins the reasons of two unjudged limits', () => {
    const d = decide([must(true, 'A')], undefined, undefined, ['no cost', 'no latency']);
    expect(d.reason).toBe(
      'a declared limit cannot be judged: no cost; no latency; the suite neither passes nor fails it on a guess',
    );
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
