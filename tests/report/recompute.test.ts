// The verdict half of the replay (lib/report/verify/recompute.ts) on literal rows: what a row recomputes
// to from its recorded discovery, settings and observation, and what a row with no observation
// comes to from its own findings.

import { describe, expect, it } from 'vitest';
import {
  impliedDecision,
  recompute,
  type Discovery,
  type FixtureLoader,
} from '../../lib/report/verify/recompute.ts';
import type { Decision } from '../../lib/decide/decide.ts';
import type { ReportRow } from '../../lib/report/report.ts';
import type { Disposition, Finding, GeneratedCaseRecord } from '../../lib/types.ts';
import { asObservation, GATED, gatedObservation } from '../witness/build.ts';
import { loadFixture } from '../../lib/fixtures.ts';
import { GENERATED_REQUIREMENT } from '../../lib/legs.ts';
import { CURRENT_GENERATOR } from '../../lib/generate/versions.ts';
import type { SidecarOpener } from '../../lib/decide/sidecar-opener.ts';
import { createHash } from 'node:crypto';
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
    expect(again.disposition).toBe('executed-pass');
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

describe('impliedDecision: a row nothing recorded can decide again', () => {
  const fault = finding('run.served', false);
  const faultReason = '1 MUST finding failed: run.served (contract §6, §9): run.served message';

  it('a row with no finding comes to a block with its own reason and no assertion', () => {
    expect(impliedDecision(row({ reason: 'connection refused' }))).toEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: 'connection refused',
      findings: [],
    });
  });

  it('a row with no finding and no reason comes to a block with an empty reason', () => {
    expect(impliedDecision(row({ disposition: 'inapplicable' }))).toMatchObject({
      disposition: 'blocked',
      reason: '',
    });
  });

  it('one failing run.served comes to the failure it implies, whatever the row recorded', () => {
    const forged = row({ disposition: 'executed-pass', assertions: 1, findings: [fault] });
    expect(impliedDecision(forged)).toEqual({
      disposition: 'executed-fail',
      assertions: 1,
      reason: faultReason,
      findings: [fault],
    });
  });

  it.each([
    ['a passing run.served', [finding('run.served', true)]],
    ['a failing finding of another rule', [finding('task.passed', false)]],
    ['two failing run.served', [fault, fault]],
  ] as const)('names %s on a row with no observation', (_name, findings) => {
    const disposition: Disposition = 'executed-fail';
    expect(impliedDecision(row({ disposition, assertions: findings.length, findings }))).toBe(
      `${findings.length} finding(s) but no observation; without one only a host fault (one failing run.served) can be recorded`,
    );
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

describe('recompute of the generated row', () => {
  const FILE = 'eval-gate-generated.jsonl.gz';
  const UNREAD: Discovery = { ok: false };
  const REASON = 'could not observe the run (create): connection reset';
  // Two blocked cases of the pack of 2 at seed 1, each line the record its case decides to again.
  const LINES = [
    `{"fixtureId":"generated-s1-n0001","file":"generated-s1-n0001.json","disposition":"blocked","reason":"${REASON}"}`,
    `{"fixtureId":"generated-s1-n0002","file":"generated-s1-n0002.json","disposition":"blocked","reason":"${REASON}"}`,
  ];
  const BLOCKED_REASON =
    '2 of 2 generated fixtures were blocked: ' +
    `generated-s1-n0001 (seed 1, generated-s1-n0001.json): ${REASON}; ` +
    `generated-s1-n0002 (seed 1, generated-s1-n0002.json): ${REASON}`;
  const TALLY = { 'executed-pass': 0, 'executed-fail': 0, inapplicable: 0, skipped: 0, blocked: 2 };

  /** The bytes a sidecar holding `lines` is read from; not compressed, since only its digest is read. */
  const fileOf = (lines: readonly string[]): Buffer => Buffer.from(`${lines.join('\n')}\n`);
  const digestOf = (bytes: Buffer) => ({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  });

  /** An in-memory sidecar: its lines one by one, then the digest of every byte. */
  function opener(bytes: Buffer, opened: string[]): SidecarOpener {
    return (file) => {
      opened.push(file);
      return {
        lines: (async function* () {
          yield* bytes
            .toString('utf8')
            .split('\n')
            .filter((line) => line !== '');
        })(),
        digest: () => digestOf(bytes),
      };
    };
  }

  const streamedRow = (sidecar: { sha256: string; bytes: number }): ReportRow =>
    row({
      id: GENERATED_REQUIREMENT,
      generated: {
        seed: 1,
        count: 2,
        sidecar: { file: FILE, ...sidecar },
        tally: TALLY,
        smallest: [],
      },
    });

  // Records that name no generator version, as reports before versions were recorded: every
  // version decides these blocked cases alike, so the newest is the one named.
  const UNVERSIONED = `generated: the report names no generator version; its cases decide again as recorded with generator v${CURRENT_GENERATOR}'s draw, the newest that does`;

  it('decides a streamed pack again from its sidecar and rebuilds its record', async () => {
    const bytes = fileOf(LINES);
    const opened: string[] = [];
    const again = await recompute(
      streamedRow(digestOf(bytes)),
      DEFAULT,
      UNREAD,
      unreachable,
      opener(bytes, opened),
    );
    expect(opened).toEqual([FILE]);
    expect(again).toStrictEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: BLOCKED_REASON,
      findings: [],
      generated: {
        seed: 1,
        count: 2,
        sidecar: { file: FILE, ...digestOf(bytes) },
        tally: TALLY,
        smallest: [],
      },
      // Blocked cases fail nothing, so a page opens none of them.
      decidedCases: new Map(),
      drawnBy: UNVERSIONED,
    });
  });

  it('names every contradiction of a streamed pack, one after another', async () => {
    const bytes = fileOf(LINES.slice(0, 1));
    const recorded = { sha256: '0'.repeat(64), bytes: bytes.length };
    const again = await recompute(
      streamedRow(recorded),
      DEFAULT,
      UNREAD,
      unreachable,
      opener(bytes, []),
    );
    expect(again).toBe(
      `${FILE}: 1 lines, the pack of 2 at seed 1 has 2; ` +
        `${FILE}: recorded sha256 ${'0'.repeat(64)} (${bytes.length} bytes), read ${digestOf(bytes).sha256} (${bytes.length} bytes)`,
    );
  });

  it('handed no sidecar reader, says the streamed pack cannot be read', async () => {
    const recorded = digestOf(fileOf(LINES));
    const again = await recompute(streamedRow(recorded), DEFAULT, UNREAD, unreachable);
    expect(again).toBe(
      `${FILE}: could not be read to its end (no sidecar reader was given, so ${FILE} cannot be read); ` +
        `${FILE}: 0 lines, the pack of 2 at seed 1 has 2; ` +
        `${FILE}: recorded sha256 ${recorded.sha256} (${recorded.bytes} bytes), read  (0 bytes)`,
    );
  });

  it('decides an inline pack again from the cases its row holds', async () => {
    const cases = LINES.map((line) => JSON.parse(line) as GeneratedCaseRecord);
    const inline = row({ id: GENERATED_REQUIREMENT, generated: { seed: 1, count: 2, cases } });
    expect(await recompute(inline, DEFAULT, UNREAD, unreachable)).toStrictEqual({
      disposition: 'blocked',
      assertions: 0,
      reason: BLOCKED_REASON,
      findings: [],
      generated: { seed: 1, count: 2, cases },
      decidedCases: new Map(),
      drawnBy: UNVERSIONED,
    });
  });

  it('has nothing to recompute for a generated row that drove no pack', async () => {
    expect(
      await recompute(row({ id: GENERATED_REQUIREMENT }), DEFAULT, UNREAD, unreachable),
    ).toBeUndefined();
  });
});
