// The reference host's grading of one fixture, in process: the host reads the fixture document as
// it would read the file (reference-host/fixtures.ts), its own run plays and grades every trial
// (reference-host/run.ts), and the log and summary it would serve become the observation the
// witness judges. No HTTP: the differential test runs thousands of these.

import { defectPredicate, type DefectName } from '../../reference-host/defects.ts';
import { readFixture } from '../../reference-host/fixtures.ts';
import { EvalRun } from '../../reference-host/run.ts';
import { mintRunId } from '../../reference-host/wire.ts';
import type { Fixture, RunObservation } from '../../lib/types.ts';

/**
 * A bound only: a run ends, or stalls for good (`run-never-ends`, which wakes its waiters), long
 * before this on any machine, so no observation depends on how busy the machine is.
 */
const RUN_WAIT_MS = 60_000;

export async function referenceObservation(
  fixture: Fixture,
  defect?: DefectName,
): Promise<RunObservation> {
  // Through JSON, as a host would read the file: no object identity is shared with the suite.
  const seeded = readFixture(JSON.parse(JSON.stringify(fixture)));
  const has = defectPredicate(defect);
  const lifetime = new AbortController();
  const runId = mintRunId('reference', 1, has);
  const evalSuiteRef = `${seeded.suite.suiteId}@${seeded.suite.version}`;
  const run = new EvalRun(runId, evalSuiteRef, seeded, {
    has,
    varied: false,
    trialDelayMs: 0,
    runDelayMs: 0,
    stepDelayMs: 0,
    signal: lifetime.signal,
  });
  run.start();
  const deadline = Date.now() + RUN_WAIT_MS;
  while (!run.terminal && !run.stalled && Date.now() < deadline) {
    await run.waitForChange(deadline - Date.now());
  }
  lifetime.abort();
  const events = run.events;
  return {
    runId,
    evalSuiteRef,
    agentId: seeded.agentId,
    pages: [
      {
        afterSequence: null,
        lastSequence: events.at(-1)?.sequence ?? -1,
        isTerminal: run.terminal,
        eventCount: events.length,
        members: { runId, status: run.status },
      },
    ],
    // As the driver keeps an event: the payload of eval.* events only, and the envelope's
    // other members for the wire rules.
    events: events.map(({ sequence, type, runId: id, payload, ...members }) => ({
      sequence,
      type,
      runId: id,
      ...(type.startsWith('eval.') ? { payload } : {}),
      envelope: { json: 'object', members, payload: 'object' },
    })),
    runStatus: run.status,
    summary: run.summary,
  };
}
