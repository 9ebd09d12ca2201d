// `decide` with the rules a run left unexercised: a MUST rule the verdict relies on that judged
// nothing blocks the leg and is named in the reason; a SHOULD rule is only listed; a failing MUST
// still fails. Then `decideRun` end to end on literal observations, and `verify` noticing a row
// whose list was dropped.

import { describe, expect, it } from 'vitest';
import { decide, decideRun } from '../../lib/decide/decide.ts';
import { describeDifference, jsonDifferences } from '../../lib/report/verify/json-diff.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import type { Finding, RunObservation, UnexercisedRule } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from '../witness/build.ts';

const must = (ok: boolean, rule: string): Finding => ({
  rule,
  ok,
  severity: 'MUST',
  ref: `RFC 0246 §${rule}`,
  message: `${rule} ${ok ? 'held' : 'broke'}`,
});
const gap = (rule: string): UnexercisedRule => ({ rule, reason: `nothing reached ${rule}` });
const OBSERVATION: RunObservation = asObservation(gatedObservation());
const HELD = [must(true, 'task.passed'), must(true, 'suite.passed')];

describe('decide with unexercised rules', () => {
  it('blocks a leg on which a MUST rule it relies on judged nothing, naming the rule and why', () => {
    const unexercised = [gap('completed.consistent'), gap('wire.error-body')];
    expect(decide(HELD, OBSERVATION, unexercised)).toStrictEqual({
      disposition: 'blocked',
      assertions: 2,
      findings: HELD,
      unexercised,
      observation: OBSERVATION,
      reason:
        '1 MUST rule the verdict relies on judged nothing, so the leg cannot pass: completed.consistent (nothing reached completed.consistent)',
    });
  });

  it('names every such rule', () => {
    const d = decide(HELD, OBSERVATION, [gap('trial.passed'), gap('completed.consistent')]);
    expect(d.reason).toBe(
      '2 MUST rules the verdict relies on judged nothing, so the leg cannot pass: trial.passed (nothing reached trial.passed); completed.consistent (nothing reached completed.consistent)',
    );
  });

  it('passes a leg whose only unexercised rules are SHOULD, and carries the list', () => {
    const unexercised = [gap('wire.error-body'), gap('trial.flags')];
    expect(decide(HELD, OBSERVATION, unexercised)).toStrictEqual({
      disposition: 'executed-pass',
      assertions: 2,
      findings: HELD,
      unexercised,
      observation: OBSERVATION,
    });
    expect(decide(HELD, OBSERVATION, [])).toStrictEqual({
      disposition: 'executed-pass',
      assertions: 2,
      findings: HELD,
      unexercised: [],
      observation: OBSERVATION,
    });
  });

  it('fails, not blocks, a leg with a failing MUST: that fault was seen', () => {
    const findings = [must(false, 'task.passed'), must(true, 'suite.passed')];
    const d = decide(findings, OBSERVATION, [gap('completed.consistent')]);
    expect(d.disposition).toBe('executed-fail');
    expect(d.reason).toBe(
      '1 MUST finding failed: task.passed (RFC 0246 §task.passed): task.passed broke',
    );
    expect(d.unexercised).toEqual([gap('completed.consistent')]);
  });

  it('does not hold an untested cursor against a leg until the driver replays it', () => {
    expect(decide(HELD, OBSERVATION, [gap('events.cursor')]).disposition).toBe('executed-pass');
    const replayed = { ...OBSERVATION, replays: [] };
    expect(decide(HELD, replayed, [gap('events.cursor')]).disposition).toBe('blocked');
  });

  it('a leg that judged nothing is blocked for that, with the list carried', () => {
    const d = decide([], OBSERVATION, [gap('task.passed')]);
    expect(d.disposition).toBe('blocked');
    expect(d.reason).toBe('the leg judged nothing: zero assertions is never a pass');
    expect(d.unexercised).toEqual([gap('task.passed')]);
  });
});

describe('decideRun', () => {
  it('passes a correct run, listing what it could not judge', () => {
    const d = decideRun(GATED, OBSERVATION);
    expect(d.disposition).toBe('executed-pass');
    expect(d.unexercised?.map((u) => u.rule)).toEqual([
      'wire.create-answer',
      'wire.poll-page',
      'wire.event-envelope',
      'wire.error-body',
      'wire.version-header',
    ]);
  });

  it('blocks a run whose whole log came on one page once the driver records replays and made none', () => {
    const draft = gatedObservation();
    const events = draft.events.length;
    draft.pages = [
      { afterSequence: null, lastSequence: events, isTerminal: true, eventCount: events },
    ];
    const replayed = { ...asObservation(draft), replays: [] };
    const d = decideRun(GATED, replayed);
    expect(d.disposition).toBe('blocked');
    expect(d.reason).toMatch(
      /^1 MUST rule the verdict relies on judged nothing, so the leg cannot pass: events\.cursor \(/,
    );
  });
});

describe('verify compares the unexercised list', () => {
  const row = (unexercised?: readonly UnexercisedRule[]): ReportRow => ({
    id: 'openwop.requirement.0246.suite-gated',
    disposition: 'executed-pass',
    assertions: 2,
    durationMs: 1,
    findings: HELD,
    ...(unexercised === undefined ? {} : { unexercised }),
  });
  const at = 'requirements[id=openwop.requirement.0246.suite-gated].unexercised';
  const differences = (recorded: ReportRow, rebuilt: ReportRow): string[] =>
    jsonDifferences({ requirements: [recorded] }, { requirements: [rebuilt] }).map(
      describeDifference,
    );

  it('accepts the same list', () => {
    expect(differences(row([gap('wire.error-body')]), row([gap('wire.error-body')]))).toEqual([]);
  });

  it('flags a row that dropped, added or reworded an unexercised rule', () => {
    expect(differences(row([]), row([gap('wire.error-body')]))).toEqual([
      `${at}[0]: recorded nothing, rebuilt {"rule":"wire.error-body","reason":"nothing reached wire.error-body"}`,
    ]);
    expect(differences(row(), row([gap('trial.flags')]))).toEqual([
      `${at}: recorded nothing, rebuilt [{"rule":"trial.flags","reason":"nothing reached trial.flags"}]`,
    ]);
    const reworded = { rule: 'trial.flags', reason: 'something else' };
    expect(differences(row([reworded]), row([gap('trial.flags')]))).toEqual([
      `${at}[0].reason: recorded "something else", rebuilt "nothing reached trial.flags"`,
    ]);
  });
});
