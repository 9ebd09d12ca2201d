// `verify --recheck` as a drive: the live host asked again, with the suite's own code, for what the
// report says it answered. Every hand-fixture row is driven again from the fixture the report
// recorded (decideWithHost, as a run drives it), a seeded sample of the generated pack's cases the
// same way (runCase), and every probe of the host checks is sent again (checkHost). What each
// answer comes to beside the recorded one is decided by lib/report/verify/recheck.ts, which is pure.
// Every request goes through the host client with the suite's deadlines and body limit.

import fc from 'fast-check';
import type { SuiteConfig } from '../../env.ts';
import type { FixtureLoad } from '../../fixtures.ts';
import { packFixtureAt, parseGeneratedId } from '../../generate/pack.ts';
import { GENERATED_REQUIREMENT, LEGS } from '../../legs.ts';
import type { GeneratedCaseRecord, GeneratedRecord, ObservedProbe } from '../../types.ts';
import type { LegTarget } from '../../decide/leg-target.ts';
import { checkHost } from '../../decide/host-checks.ts';
import { runCase } from '../../decide/generated-pack.ts';
import { PACK_CONCURRENCY } from '../../decide/pack-request.ts';
import { decideWithHost, discoveryOf } from '../../decide/run-leg.ts';
import type { SidecarOpener } from '../../decide/sidecar-opener.ts';
import { sidecarRecordsById } from '../../decide/sidecar-records.ts';
import { redactContent } from '../canonical.ts';
import type { Comparison, RecheckOutcome, WitnessedDrive } from './recheck.ts';
import { compareDrive, compareProbe, recheckOutcome } from './recheck.ts';
import type { EvalGateReport } from '../report.ts';

/** How many of a generated pack's cases a recheck drives again unless told otherwise. */
export const RECHECK_SAMPLE = 8;
/** The most it drives: a recheck is a spot check, and every case is a run on the host. */
export const MAX_RECHECK_SAMPLE = 1000;

export interface RecheckRequest {
  /** The live host, its discovery read afresh, and the bounds; its settings are the report's. */
  readonly target: Omit<LegTarget, 'config'> & { readonly bounds: SuiteConfig['bounds'] };
  /** The address the recheck drove, as the certifier gave it. */
  readonly url: string;
  readonly keyConfigured: boolean;
  /** Reads a row's fixture as the report's digest names it (an archived one for an older report). */
  readonly loadFixture: (id: string) => Promise<FixtureLoad>;
  readonly openSidecar: SidecarOpener;
  /** How many generated cases to drive again (0: none). */
  readonly sampleSize: number;
  /** The seed the sample is drawn with; a fresh one each recheck, so a host cannot know it before. */
  readonly sampleSeed: number;
  readonly now?: () => Date;
}

export interface Rewitnessed {
  readonly outcome: RecheckOutcome;
  /** The generated cases driven again, by id. */
  readonly sampled: readonly string[];
}

/** Drives the host again and compares; never throws for anything the host or network does. */
export async function rewitness(
  report: EvalGateReport,
  request: RecheckRequest,
): Promise<Rewitnessed> {
  const { target } = request;
  const legTarget: LegTarget = {
    client: target.client,
    discovery: target.discovery,
    config: { requireBehavior: report.strict, optedOut: report.optedOut, bounds: target.bounds },
  };
  const rows = report.requirements.filter(
    (row) => row.id !== GENERATED_REQUIREMENT && row.fixtureId !== undefined,
  );
  const rowChecks = Promise.all(
    rows.map(async (row): Promise<{ comparison: Comparison; runId?: string }> => {
      const leg = LEGS.find((l) => l.id === row.id);
      const fixtureId = row.fixtureId as string;
      if (leg === undefined) return { comparison: { kind: 'not-compared' } };
      const decision = await decideWithHost(
        {
          leg,
          selected: row.disposition !== 'skipped',
          settings: legTarget.config,
          discovery: discoveryOf(legTarget),
          fixture: await request.loadFixture(fixtureId),
        },
        legTarget,
      );
      return {
        comparison: compareDrive(`row ${row.id}`, row, witnessed(decision)),
        ...(decision.observation === undefined ? {} : { runId: decision.observation.runId }),
      };
    }),
  );
  const pack = report.requirements.find((r) => r.id === GENERATED_REQUIREMENT)?.generated;
  const sampled =
    pack === undefined ? [] : samplePlaces(pack, request.sampleSize, request.sampleSeed);
  const caseChecks =
    pack === undefined
      ? Promise.resolve([])
      : recheckCases(pack, sampled, legTarget, request.openSidecar);
  const [rowResults, caseResults] = await Promise.all([rowChecks, caseChecks]);
  // The unknown-run probe asks in the tenant of a run the host minted now, as a run's does.
  const knownRunId = rowResults.find((r) => r.runId !== undefined)?.runId;
  const probes = await recheckProbes(report, legTarget, request.keyConfigured, knownRunId);
  const at = (request.now ?? (() => new Date()))()
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  return {
    outcome: recheckOutcome(request.url, at, [
      ...probes,
      ...rowResults.map((r) => r.comparison),
      ...caseResults,
    ]),
    sampled: sampled.map((place) => place.id),
  };
}

function witnessed(decision: {
  readonly disposition: WitnessedDrive['disposition'];
  readonly reason?: string;
  readonly observation?: WitnessedDrive['observation'];
}): WitnessedDrive {
  return {
    disposition: decision.disposition,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    // Redacted as the report records it, so a member compared reads the same on both sides.
    ...(decision.observation === undefined
      ? {}
      : { observation: redactContent(decision.observation) }),
  };
}

async function recheckProbes(
  report: EvalGateReport,
  target: LegTarget,
  keyConfigured: boolean,
  knownRunId: string | undefined,
): Promise<Comparison[]> {
  const recorded = report.hostChecks?.probes ?? [];
  if (recorded.length === 0) return [];
  const now = await checkHost({
    client: target.client,
    discovery: target.discovery,
    keyConfigured,
    knownRunId: knownRunId ?? firstRecordedRunId(report),
    timeoutMs: target.config.bounds.requestTimeoutMs,
  });
  const byName = new Map<string, ObservedProbe>(now.probes.map((p) => [p.probe, p]));
  return recorded.map((p) => compareProbe(p, byName.get(p.probe)));
}

function firstRecordedRunId(report: EvalGateReport): string | undefined {
  return report.requirements.find((r) => r.observation !== undefined)?.observation?.runId;
}

interface Place {
  readonly id: string;
  readonly seed: number;
  readonly place: number;
}

/** The cases to drive again: `size` places of the pack drawn with `sampleSeed`, in pack order. */
export function samplePlaces(pack: GeneratedRecord, size: number, sampleSeed: number): Place[] {
  if (size <= 0) return [];
  if (pack.case !== undefined) {
    const one = parseGeneratedId(pack.case);
    return one === null ? [] : [{ id: pack.case, seed: one.seed, place: one.index }];
  }
  const places = Array.from({ length: pack.count }, (_, i) => i + 1);
  const take = Math.min(size, pack.count);
  const [drawn] = fc.sample(fc.shuffledSubarray(places, { minLength: take, maxLength: take }), {
    seed: sampleSeed,
    numRuns: 1,
  });
  return [...(drawn ?? [])]
    .sort((a, b) => a - b)
    .map((place) => {
      const fixture = packFixtureAt(pack.seed, place);
      return { id: fixture.id, seed: pack.seed, place };
    });
}

async function recheckCases(
  pack: GeneratedRecord,
  places: readonly Place[],
  target: LegTarget,
  openSidecar: SidecarOpener,
): Promise<Comparison[]> {
  if (places.length === 0) return [];
  const wanted = new Set(places.map((p) => p.id));
  const recorded = await recordedCases(pack, wanted, openSidecar);
  const out: Comparison[] = [];
  // A bounded number of runs at once, as a pack is driven.
  for (let start = 0; start < places.length; start += PACK_CONCURRENCY) {
    const chunk = places.slice(start, start + PACK_CONCURRENCY);
    const done = await Promise.all(
      chunk.map(async (p): Promise<Comparison> => {
        const where = `case ${p.id}`;
        const record = recorded.get(p.id);
        if (record === undefined) {
          return {
            kind: 'unwitnessed',
            why: `${where}: the report's record of it could not be read`,
          };
        }
        const decision = await runCase(packFixtureAt(p.seed, p.place), target);
        return compareDrive(where, record, witnessed(decision));
      }),
    );
    out.push(...done);
  }
  return out;
}

/** The recorded case records of `wanted`, read from the row or line by line from its sidecar. */
async function recordedCases(
  pack: GeneratedRecord,
  wanted: ReadonlySet<string>,
  openSidecar: SidecarOpener,
): Promise<ReadonlyMap<string, GeneratedCaseRecord>> {
  const out = new Map<string, GeneratedCaseRecord>();
  if ('cases' in pack) {
    for (const c of pack.cases) if (wanted.has(c.fixtureId)) out.set(c.fixtureId, c);
    return out;
  }
  try {
    for (const [id, found] of await sidecarRecordsById(openSidecar(pack.sidecar.file), wanted)) {
      out.set(id, found.record);
    }
  } catch {
    // verify has named a sidecar it cannot read; the cases it holds are then not compared.
  }
  return out;
}
