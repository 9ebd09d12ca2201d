// One leg, start to finish: gates, fixture, drive, judge, and the disposition that follows.
// Everything that decides a disposition from findings is in `decide`, which is pure.

import type { LegDefinition } from '../legs.ts';
import type { LegTarget } from './leg-target.ts';
import type { Disposition, Finding, LegOutcome, RunObservation } from '../types.ts';
import { planHostLeg, replayingClient } from './head-start.ts';
import { driveEvalRun } from '../observe/driver.ts';
import { judgeEvalRun } from '../eval-gate-witness.ts';
import { judgeGatedFieldsShape } from '../witness/shape-leg.ts';
import { WireRecord } from '../observe/wire-record.ts';

/** How many failed findings a reason quotes before it says how many more there are. */
const REASON_FINDINGS = 3;

/**
 * Runs one leg. `target` is undefined when the suite has no host to drive (no base URL); host
 * legs are then `blocked`, because that is a fact about how the suite was started.
 */
export async function runLeg(
  leg: LegDefinition,
  target: LegTarget | undefined,
  now: () => number = Date.now,
): Promise<LegOutcome> {
  let started = now();
  const finish = (parts: Omit<LegOutcome, 'requirement' | 'durationMs'>): LegOutcome => ({
    requirement: leg.id,
    ...parts,
    durationMs: Math.max(0, now() - started),
  });

  if (leg.fixtureId === undefined) return finish(decide(judgeGatedFieldsShape()));

  const plan = await planHostLeg({ ...leg, fixtureId: leg.fixtureId }, target);
  if (plan.kind === 'blocked') return finish(blocked(plan.reason));
  if (plan.kind === 'gated') {
    return finish({
      disposition: plan.disposition,
      assertions: 0,
      reason: plan.reason,
      findings: [],
    });
  }
  const { fixture, request, target: host } = plan;
  const head = host.headStarts?.get(leg.id);
  // The leg's run was created when its head start was taken, so its time counts from then.
  if (head !== undefined) started = Math.min(started, head.startedAt);

  // Discovery was read once for every leg; its header is part of what each leg's host said.
  const wire = new WireRecord();
  if (host.discovery.ok) wire.version('discovery', host.discovery.versionHeader ?? undefined);
  const drive = await driveEvalRun(
    head === undefined ? host.client : replayingClient(host.client, head),
    request,
    host.config.bounds,
    Date.now,
    wire,
  );
  const base = { fixtureId: fixture.id };
  switch (drive.kind) {
    case 'unobserved':
      return finish({
        ...base,
        ...blocked(`could not observe the run (${drive.stage}): ${drive.reason}`),
      });
    case 'host-fault':
      return finish({ ...base, ...decide([hostFaultFinding(drive.stage, drive.reason)]) });
    case 'observed':
      return finish({
        ...base,
        ...decide(judgeEvalRun(fixture, drive.observation), drive.observation),
      });
  }
}

type Decision = Omit<LegOutcome, 'requirement' | 'durationMs'>;

function blocked(reason: string): Decision {
  return { disposition: 'blocked', assertions: 0, reason, findings: [] };
}

/** A host that listed the fixture and then refused or mis-served it fails the leg (contract §9). */
export function hostFaultFinding(stage: string, reason: string): Finding {
  return {
    rule: 'run.served',
    ok: false,
    severity: 'MUST',
    ref: 'contract §6, §9',
    message: `a host that advertises the capability and lists the fixture MUST serve the run (${stage}): ${reason}`,
  };
}

/**
 * The disposition that findings imply. A failing MUST fails the leg; SHOULD findings never do.
 * No finding at all means nothing was checked, which is never a pass.
 */
export function decide(findings: readonly Finding[], observation?: RunObservation): Decision {
  const withObservation = observation === undefined ? {} : { observation };
  if (findings.length === 0) {
    return {
      ...blocked('the leg judged nothing: zero assertions is never a pass'),
      ...withObservation,
    };
  }
  const failed = findings.filter((f) => f.severity === 'MUST' && !f.ok);
  const disposition: Disposition = failed.length === 0 ? 'executed-pass' : 'executed-fail';
  const decision: Decision = {
    disposition,
    assertions: findings.length,
    findings,
    ...withObservation,
  };
  return failed.length === 0 ? decision : { ...decision, reason: failureReason(failed) };
}

function failureReason(failed: readonly Finding[]): string {
  const quoted = failed.slice(0, REASON_FINDINGS).map((f) => `${f.rule} (${f.ref}): ${f.message}`);
  const more = failed.length - quoted.length;
  const head = `${failed.length} MUST finding${failed.length === 1 ? '' : 's'} failed`;
  return `${head}: ${quoted.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
