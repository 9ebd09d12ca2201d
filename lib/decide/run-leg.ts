// One leg, start to finish. The decision is decideLeg's alone (decide-leg.ts, pure); this module
// only fetches the facts it asks for, the fixture file and the drive of the run, and times it.

import type { LegDefinition } from '../legs.ts';
import type { LegTarget } from './leg-target.ts';
import type { LegOutcome } from '../types.ts';
import type { DriveWatch } from '../observe/drive-watch.ts';
import { loadFixture } from '../fixtures.ts';
import type { Decision } from './decide.ts';
import { decideLeg, type HostDiscovery, type LegFacts } from './decide-leg.ts';
import { driveEvalRun, SYSTEM_CLOCK, type DriveClock } from '../observe/driver.ts';
import { WireRecord } from '../observe/wire-record.ts';

export interface LegRun {
  /** False when the run's selection leaves the leg out; it is then skipped and never drives. */
  readonly selected?: boolean;
  /** Told what the leg's drive sees as it runs (progress, the first run id). */
  readonly watch?: DriveWatch;
  /** The clock the leg is timed and its run deadline read on; Date.now unless a test drives it. */
  readonly now?: () => number;
}

/** No base URL: a fact about how the suite was started, so host legs are `blocked`. */
export const NO_HOST = 'no host to drive: OPENWOP_BASE_URL is not set for this run';

/** What a target tells a leg about discovery. */
export function discoveryOf(target: LegTarget | undefined): HostDiscovery {
  if (target === undefined) return { kind: 'no-host', reason: NO_HOST };
  return target.discovery.ok
    ? { kind: 'read', document: target.discovery.document }
    : { kind: 'unreadable', reason: target.discovery.reason };
}

export async function runLeg(
  leg: LegDefinition,
  target: LegTarget | undefined,
  how: LegRun = {},
): Promise<LegOutcome> {
  const now = how.now ?? Date.now;
  const started = now();
  const decision = await decideWithHost(
    {
      leg,
      selected: how.selected ?? true,
      settings: target?.config ?? { requireBehavior: false, optedOut: [] },
      discovery: discoveryOf(target),
    },
    target,
    how.watch,
    { ...SYSTEM_CLOCK, now },
  );
  return { requirement: leg.id, ...decision, durationMs: Math.max(0, now() - started) };
}

/** Asks decideLeg until it decides, fetching each fact it asks for: the fixture, then the drive. */
export async function decideWithHost(
  known: LegFacts,
  target: LegTarget | undefined,
  watch?: DriveWatch,
  clock: DriveClock = SYSTEM_CLOCK,
): Promise<Decision> {
  let facts = known;
  for (;;) {
    const step = decideLeg(facts);
    if (step.kind === 'decided') return step.decision;
    if (step.kind === 'load-fixture') {
      facts = { ...facts, fixture: await loadFixture(step.fixtureId) };
      continue;
    }
    // decideLeg asks for a drive only once discovery was read, so there is a target.
    const host = target as LegTarget;
    // Discovery was read once for every leg; its header is part of what each leg's host said.
    const wire = new WireRecord();
    if (host.discovery.ok) wire.version('discovery', host.discovery.versionHeader ?? undefined);
    const drive = await driveEvalRun(
      host.client,
      step.request,
      host.config.bounds,
      clock,
      wire,
      watch,
    );
    facts = { ...facts, drive };
  }
}
