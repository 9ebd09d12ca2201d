// The verdict half of `verify` (lib/report/recompute.ts) on literal rows: what a row recomputes to from its recorded
// discovery, settings and observation; each field a row can differ in, named exactly; the
// consistency a row with no observation must keep; and the totals.

import { describe, expect, it } from 'vitest';
import {
  checkConsistency,
  checkTotals,
  compareRow,
  recompute,
  type Discovery,
  type FixtureLoader,
} from '../../lib/report/recompute.ts';
import type { Decision } from '../../lib/decide/decide.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import type { Disposition, Finding } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from '../witness/build.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { oracle } from '../property/oracle.ts';

const MEAN = 'openwop.requirement.0246.mean-gated';
const MEAN_FIXTURE = 'conformance-eval-trajectory-gate-mean';
const SHAPE = 'openwop.requirement.0246.gated-fields-shape';

const ALL_CAPABILITIES = { modes: ['golden'], trajectory: {}, trials: {} };
const served = (document: unknown): Discovery => ({ ok: true, document });
const V2_HOST = served({
  protocolVersions: ['2.0'],
  preferredVersion: '2.0',
  agents: { evalSuite: ALL_CAPABILITIES },
  fixtures: [MEAN_FIXTURE],
});
const V1_HOST = served({
  protocolVersions: ['1.11'],
  preferredVersion: '1.11',
  agents: { evalSuite: ALL_CAPABILITIES },
  fixtures: [MEAN_FIXTURE],
});
const V1_REASON =
  'host does not serve OpenWOP major 2: protocolVersions lists no 2.x (it lists ["1.11"])';
const DEFAULT = { strict: false, optedOut: [] };

function row(parts: Partial<ReportRow> = {}): ReportRow {
  return { id: MEAN, disposition: 'blocked', assertions: 0, durationMs: 5, findings: [], ...parts };
}

const finding = (rule: string, ok: boolean): Finding => ({
  rule,
  ok,
  severity: 'MUST',
  ref: 'contract §6, §9',
  message: `${rule} message`,
});

/** A loader that must not be reached. */
const unreachable: FixtureLoader = (id) => Promise.reject(new Error(`loaded ${id}`));

describe('recompute', () => {
  it('names a row of a requirement the suite does not have', async () => {
    const unknown = row({ id: 'openwop.requirement.0246.not-a-leg' });
    expect(await recompute(unknown, DEFAULT, V2_HOST, unreachable)).toBe(
      'no such requirement in this suite',
    );
  });

  it('recomputes the server-free leg from the witness alone, whatever discovery says', async () => {
    const again = await recompute(row({ id: SHAPE }), DEFAULT, V1_HOST, unreachable);
    expect(again).toMatchObject({ disposition: 'executed-pass' });
    expect(again).not.toHaveProperty('reason');
    expect((again as Decision).assertions).toBeGreaterThan(0);
  });

  it('a failing gate decides the row with no assertion and no finding, before any observation', async () => {
    const observed = row({
      fixtureId: MEAN_FIXTURE,
      observation: asObservation(gatedObservation()),
    });
    expect(await recompute(observed, DEFAULT, V1_HOST, unreachable)).toStrictEqual({
      disposition: 'inapplicable',
      assertions: 0,
      reason: V1_REASON,
      findings: [],
    });
  });

  it("reads the gates in the report's strict mode and opt-outs", async () => {
    const skipped = await recompute(
      row(),
      { strict: true, optedOut: ['agents.evalSuite'] },
      V1_HOST,
      unreachable,
    );
    expect(skipped).toMatchObject({
      disposition: 'skipped',
      reason: `${V1_REASON}; agents.evalSuite is opted out in OPENWOP_OPTED_OUT_PROFILES`,
    });
    const failed = await recompute(row(), { strict: true, optedOut: [] }, V1_HOST, unreachable);
    expect(failed).toMatchObject({ disposition: 'executed-fail' });
  });

  it('without an observation there is nothing to recompute, gates held or discovery lost', async () => {
    expect(await recompute(row(), DEFAULT, V2_HOST, unreachable)).toBeUndefined();
    expect(await recompute(row(), DEFAULT, { ok: false }, unreachable)).toBeUndefined();
  });

  it('a lost discovery reads no gate and recomputes the observation', async () => {
    const observation = asObservation(gatedObservation());
    const again = await recompute(
      row({ fixtureId: MEAN_FIXTURE, observation }),
      DEFAULT,
      { ok: false },
      () => Promise.resolve({ ok: true, fixture: GATED, path: 'p' }),
    );
    expect(again).toMatchObject({ disposition: 'executed-pass', observation });
  });

  it('names a row that records another fixture than its requirement drives', async () => {
    const observation = asObservation(gatedObservation());
    const other = row({ fixtureId: 'conformance-eval-trajectory-gate-any', observation });
    expect(await recompute(other, DEFAULT, V2_HOST, unreachable)).toBe(
      `fixtureId: recorded conformance-eval-trajectory-gate-any, the requirement drives ${MEAN_FIXTURE}`,
    );
    expect(await recompute(row({ observation }), DEFAULT, V2_HOST, unreachable)).toBe(
      `fixtureId: recorded undefined, the requirement drives ${MEAN_FIXTURE}`,
    );
  });

  it('names a fixture that does not load', async () => {
    const observed = row({
      fixtureId: MEAN_FIXTURE,
      observation: asObservation(gatedObservation()),
    });
    const broken: FixtureLoader = () => Promise.resolve({ ok: false, reason: 'no such file' });
    expect(await recompute(observed, DEFAULT, V2_HOST, broken)).toBe(
      `fixture ${MEAN_FIXTURE} does not load here: no such file`,
    );
  });

  it("judges the observation against the requirement's fixture and carries it", async () => {
    const asked: string[] = [];
    const load: FixtureLoader = (id) => {
      asked.push(id);
      return Promise.resolve({ ok: true, fixture: GATED, path: 'p' });
    };
    const observation = asObservation(gatedObservation());
    const again = await recompute(
      row({ fixtureId: MEAN_FIXTURE, observation }),
      DEFAULT,
      V2_HOST,
      load,
    );
    expect(asked).toEqual([MEAN_FIXTURE]);
    expect(again).toMatchObject({ disposition: 'executed-pass', observation });
    // A summary the witness rejects recomputes to a failure: the verdict is the witness's.
    const broken = gatedObservation();
    (broken.summary as { passed: boolean }).passed = false;
    const failed = await recompute(
      row({ fixtureId: MEAN_FIXTURE, observation: asObservation(broken) }),
      DEFAULT,
      V2_HOST,
      load,
    );
    expect(failed).toMatchObject({ disposition: 'executed-fail' });
  });

  it('an observation recorded before replays recomputes as it was judged; recorded replays are judged', async () => {
    const load: FixtureLoader = () => Promise.resolve({ ok: true, fixture: GATED, path: 'p' });
    const before = asObservation(gatedObservation());
    const again = (await recompute(
      row({ fixtureId: MEAN_FIXTURE, observation: before }),
      DEFAULT,
      V2_HOST,
      load,
    )) as Decision;
    // The finding the witness made before replays existed, word for word.
    expect(again.findings.find((f) => f.rule === 'events.cursor')).toEqual({
      rule: 'events.cursor',
      ok: true,
      severity: 'MUST',
      ref: 'contract §6',
      message:
        '2 pages: each page after its afterSequence, lastSequence never decreasing, ending terminal',
    });
    expect(compareRow(row({ ...again, fixtureId: MEAN_FIXTURE }), again)).toEqual([]);
    // A replay from the last sequence (15) that returned that event again.
    const replayed = {
      ...before,
      replays: [
        {
          cursor: 'last-sequence' as const,
          afterSequence: 15,
          pages: [{ afterSequence: 15, lastSequence: 15, isTerminal: true, eventCount: 1 }],
          events: [{ sequence: 15, type: 'run.completed' }],
        },
      ],
    };
    const failed = await recompute(
      row({ fixtureId: MEAN_FIXTURE, observation: replayed }),
      DEFAULT,
      V2_HOST,
      load,
    );
    expect(failed).toMatchObject({ disposition: 'executed-fail' });
  });
});

describe('compareRow', () => {
  const held: Decision = {
    disposition: 'executed-pass',
    assertions: 2,
    findings: [finding('a', true), finding('b', true)],
  };

  it('finds nothing in a row that matches its recomputation', () => {
    expect(compareRow(row({ ...held }), held)).toEqual([]);
  });

  it('names the disposition, assertions and reason a row differs in', () => {
    const edited = row({ ...held, disposition: 'executed-fail', assertions: 3, reason: 'x' });
    expect(compareRow(edited, held)).toEqual([
      `row ${MEAN}: disposition recorded executed-fail, recomputed executed-pass`,
      `row ${MEAN}: assertions recorded 3, recomputed 2`,
      `row ${MEAN}: reason recorded "x", recomputed undefined`,
    ]);
  });

  it('names each field of each finding both hold, and the count when they hold different numbers', () => {
    const other: Finding = { rule: 'c', ok: false, severity: 'SHOULD', ref: 'r', message: 'm' };
    const edited = row({ ...held, findings: [held.findings[0] as Finding, other, other] });
    expect(compareRow(edited, held)).toEqual([
      `row ${MEAN}: findings recorded 3, recomputed 2`,
      `row ${MEAN}: findings[1] (b) rule recorded "c", recomputed "b"`,
      `row ${MEAN}: findings[1] (b) ok recorded false, recomputed true`,
      `row ${MEAN}: findings[1] (b) severity recorded "SHOULD", recomputed "MUST"`,
      `row ${MEAN}: findings[1] (b) ref recorded "r", recomputed "contract §6, §9"`,
      `row ${MEAN}: findings[1] (b) message recorded "m", recomputed "b message"`,
    ]);
  });
});

describe('checkConsistency', () => {
  const fault = finding('run.served', false);
  const faultReason = '1 MUST finding failed: run.served (contract §6, §9): run.served message';

  it('accepts a blocked row with no finding and no assertion', () => {
    expect(checkConsistency(row())).toEqual([]);
  });

  it('names assertions on a blocked row with no finding', () => {
    expect(checkConsistency(row({ assertions: 2 }))).toEqual([
      `row ${MEAN}: assertions 2 with no finding`,
    ]);
  });

  it('names any other disposition with no finding', () => {
    expect(checkConsistency(row({ disposition: 'inapplicable' }))).toEqual([
      `row ${MEAN}: disposition inapplicable with no finding and no gate that explains it`,
    ]);
  });

  it('accepts one failing run.served recorded as the failure it implies', () => {
    const recorded = row({
      disposition: 'executed-fail',
      assertions: 1,
      reason: faultReason,
      findings: [fault],
    });
    expect(checkConsistency(recorded)).toEqual([]);
  });

  it('names a host fault recorded as something its finding does not imply', () => {
    const forged = row({ disposition: 'executed-pass', assertions: 1, findings: [fault] });
    expect(checkConsistency(forged)).toEqual([
      `row ${MEAN}: disposition recorded executed-pass, its findings imply executed-fail`,
      `row ${MEAN}: reason recorded undefined, its findings imply ${JSON.stringify(faultReason)}`,
    ]);
  });

  it.each([
    ['a passing run.served', [finding('run.served', true)]],
    ['a failing finding of another rule', [finding('task.passed', false)]],
    ['two failing run.served', [fault, fault]],
  ] as const)('names %s on a row with no observation', (_name, findings) => {
    const disposition: Disposition = 'executed-fail';
    expect(checkConsistency(row({ disposition, assertions: findings.length, findings }))).toEqual([
      `row ${MEAN}: ${findings.length} finding(s) but no observation; without one only a host fault (one failing run.served) can be recorded`,
    ]);
  });
});

describe('checkTotals', () => {
  const totals = (parts: Partial<Record<Disposition, number>>): Record<Disposition, number> => ({
    'executed-pass': 0,
    'executed-fail': 0,
    inapplicable: 0,
    skipped: 0,
    blocked: 0,
    ...parts,
  });
  const rows = [row({ disposition: 'executed-pass' }), row({ disposition: 'blocked' })];

  it('accepts totals that count the rows', () => {
    expect(
      checkTotals({ requirements: rows, totals: totals({ 'executed-pass': 1, blocked: 1 }) }),
    ).toEqual([]);
  });

  it('names each disposition whose total differs, with both numbers', () => {
    const edited = totals({ 'executed-pass': 2, blocked: 1, skipped: 1 });
    expect(checkTotals({ requirements: rows, totals: edited })).toEqual([
      'totals.executed-pass: recorded 2, the rows hold 1',
      'totals.skipped: recorded 1, the rows hold 0',
    ]);
  });
});

describe('recompute with a declared limit the recorded run reports no figures for', () => {
  const COST = 'openwop.requirement.0246.cost-limit-kept';
  const COST_FIXTURE = 'conformance-eval-trajectory-gate-cost-limit';
  const host = served({
    protocolVersions: ['2.0'],
    preferredVersion: '2.0',
    agents: { evalSuite: ALL_CAPABILITIES },
    fixtures: [COST_FIXTURE],
  });

  it('recomputes a pass: the stated cost decides passed, which the bare run gets right', async () => {
    const loaded = await loadFixture(COST_FIXTURE);
    if (!loaded.ok) throw new Error(loaded.reason);
    const fixture = loaded.fixture;
    const observation = structuredClone(oracle(fixture));
    const summary = observation.summary as Record<string, unknown>;
    delete summary['totalCostUsd'];
    for (const task of summary['tasks'] as Record<string, unknown>[]) delete task['costUsd'];
    for (const event of observation.events)
      delete (event.payload as Record<string, unknown>)['costUsd'];
    const recorded = row({ id: COST, fixtureId: COST_FIXTURE, observation });
    const again = await recompute(recorded, DEFAULT, host, () => Promise.resolve(loaded));
    expect(again).toMatchObject({ disposition: 'executed-pass' });
  });
});
