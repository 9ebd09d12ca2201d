// The one decision of a leg, from everything the leg knows so far: whether it was selected, the
// server-free judgement, the host's discovery through the gates, the fixture load, and the drive's
// ending through the witness. It is pure: when it needs a fact only I/O can give (the fixture
// file, the run itself), it says which, and the caller (run-leg.ts, or `verify` reading a report)
// supplies it and asks again. So the run and `verify` cannot decide a leg two ways.

import type { FixtureLoad } from '../fixtures.ts';
import type { LegDefinition } from '../legs.ts';
import type { EvalRunRequest } from '../observe/driver.ts';
import type { DriveResult, Fixture } from '../types.ts';
import { judgeGatedFieldsShape } from '../eval-gate-witness.ts';
import { blocked, decide, decideDrive, NOT_SELECTED, type Decision } from './decide.ts';
import { checkGates, type GateConfig } from './gates.ts';

/** What the leg knows of the host's discovery. */
export type HostDiscovery =
  | { readonly kind: 'no-host'; readonly reason: string }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'read'; readonly document: unknown }
  /**
   * A recorded run whose discovery is not on record (`verify` of a report that lost it): the
   * gates cannot be read again, so the recorded drive alone decides.
   */
  | { readonly kind: 'unrecorded' };

export interface LegFacts {
  readonly leg: LegDefinition;
  /** False when --only/--skip left the leg out: it never drives. */
  readonly selected: boolean;
  readonly settings: GateConfig;
  readonly discovery: HostDiscovery;
  /** The fixture file as it loaded, once the gates held and it was asked for. */
  readonly fixture?: FixtureLoad;
  /** How the drive of the leg's run ended, once it was asked for. */
  readonly drive?: DriveResult;
}

/** The leg's outcome without its timing, or the one fact it needs next. */
export type LegStep =
  | { readonly kind: 'decided'; readonly decision: Decision }
  | { readonly kind: 'load-fixture'; readonly fixtureId: string }
  | { readonly kind: 'drive'; readonly fixture: Fixture; readonly request: EvalRunRequest };

/**
 * Decides the leg, in the order a run meets the facts: selection, the server-free leg, the host,
 * the gates (contract §2), the fixture file, the drive. A leg that is not selected, or whose gate
 * fails, never loads its fixture or drives.
 */
export function decideLeg(facts: LegFacts): LegStep {
  const { leg } = facts;
  if (!facts.selected) return decided({ ...blocked(NOT_SELECTED), disposition: 'skipped' });
  if (leg.fixtureId === undefined) return decided(decide(judgeGatedFieldsShape()));
  const host = facts.discovery;
  if (host.kind === 'no-host') return decided(blocked(host.reason));
  if (host.kind === 'unreadable') return decided(blocked(`discovery unreadable: ${host.reason}`));
  if (host.kind === 'read') {
    const gate = checkGates(leg, host.document, facts.settings);
    if (!gate.proceed) {
      return decided({
        disposition: gate.disposition,
        assertions: 0,
        reason: gate.reason,
        findings: [],
      });
    }
  }
  const loaded = facts.fixture;
  if (loaded === undefined) return { kind: 'load-fixture', fixtureId: leg.fixtureId };
  if (!loaded.ok) return decided(blocked(`the suite's fixture failed to load: ${loaded.reason}`));
  const fixture = loaded.fixture;
  if (facts.drive === undefined) return { kind: 'drive', fixture, request: runRequest(fixture) };
  return decided({ fixtureId: fixture.id, ...decideDrive(fixture, facts.drive) });
}

/** What a fixture's run is created with: its suite by reference and the scripted agent. */
export function runRequest(fixture: Fixture): EvalRunRequest {
  return {
    evalSuiteRef: `${fixture.suite.suiteId}@${fixture.suite.version}`,
    agentId: fixture.agentId,
  };
}

function decided(decision: Decision): LegStep {
  return { kind: 'decided', decision };
}
