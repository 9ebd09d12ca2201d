// One leg, start to finish: gates, fixture, drive, judge, and the disposition that follows.
// Everything that decides a disposition from findings is in `decide`, which is pure.

import type { LegDefinition } from '../legs.ts';
import type { LegTarget } from './leg-target.ts';
import type { LegOutcome } from '../types.ts';
import { blocked, decide, hostFaultFinding } from './decide.ts';
import { planHostLeg, replayingClient } from './head-start.ts';
import { driveEvalRun } from '../observe/driver.ts';
import { judgeEvalRun, unjudgedLimits } from '../eval-gate-witness.ts';
import { judgeGatedFieldsShape } from '../witness/shape-leg.ts';
import { WireRecord } from '../observe/wire-record.ts';

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
        ...decide(
          judgeEvalRun(fixture, drive.observation),
          drive.observation,
          unjudgedLimits(fixture, drive.observation),
        ),
      });
  }
}
