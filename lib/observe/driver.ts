// Drives one eval run and records what the host said. It asserts nothing about grading: the
// observation goes to the witness. It only sorts an ending into `observed`, `host-fault` (the
// host answered and was wrong in a way that ends observation) or `unobserved` (the suite or the
// network could not see), per the "whose fact is it?" rule of contract §9.

import type { Bounds } from '../env.ts';
import type { HostClient } from './host-client.ts';
import type { DriveResult, RunObservation } from '../types.ts';
import { OBSERVATION_RECORD_VERSION } from '../types.ts';
import {
  ask,
  describeAnswer,
  hostFault,
  asRecord,
  SYSTEM_CLOCK,
  type DriveClock,
  type Run,
} from './ask.ts';
import { encodeRunId } from './host-client.ts';
import { readLog, replayLog } from './log-reader.ts';
import { WireRecord } from './wire-record.ts';
import type { DriveWatch } from './drive-watch.ts';

export { BACKOFF, retryAfterMs, SYSTEM_CLOCK, type DriveClock } from './ask.ts';
export { LOG_LIMIT_IN_BODIES } from './log-reader.ts';

export interface EvalRunRequest {
  readonly evalSuiteRef: string;
  readonly agentId: string;
}

export async function driveEvalRun(
  client: HostClient,
  request: EvalRunRequest,
  bounds: Bounds,
  { now, sleep }: DriveClock = SYSTEM_CLOCK,
  /** Where the wire is recorded; a caller passes one that already holds discovery's header. */
  wire: WireRecord = new WireRecord(),
  /** Told the run id, the events seen and what the drive waits for, as they happen. */
  watch: DriveWatch = {},
): Promise<DriveResult> {
  const deadline = now() + bounds.runTimeoutMs;
  const run: Run = { client, bounds, now, sleep, deadline, wire, watch };
  watch.waiting?.('create');

  const created = await ask(
    run,
    'create',
    `POST /runs not accepted within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.post('/runs', { mode: 'eval', ...request }, { timeoutMs }),
  );
  if (!created.ok) return created.result;
  const answer = created.value;
  if (answer.status < 200 || answer.status > 299) {
    return hostFault('create', `POST /runs ${describeAnswer(answer)}`);
  }
  const runId = asRecord(answer.json)?.runId;
  if (typeof runId !== 'string' || runId === '') {
    return hostFault('create', `POST /runs answered ${answer.status} without a string runId`);
  }
  watch.created?.(runId);
  const runPath = `/runs/${encodeRunId(runId)}`;

  // The first poll goes out at once: no delay is scheduled between the create and the log.
  watch.waiting?.('terminal-event');
  const eventsPath = `${runPath}/events/poll`;
  const followed = await readLog(run, eventsPath);
  if (!followed.ok) return followed.result;

  // The summary first: its 409 retry waits out the host's finalisation, so the status read after
  // it sees the finished run rather than a status that lags the log by a moment.
  watch.waiting?.('summary');
  const summary = await ask(
    run,
    'summary',
    `summary not served within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.get(`${runPath}/eval-summary`, { timeoutMs }),
    (code) => code === 409,
  );
  if (!summary.ok) return summary.result;
  if (summary.value.status !== 200 || summary.value.jsonError !== undefined) {
    return hostFault('summary', `GET ${runPath}/eval-summary ${describeAnswer(summary.value)}`);
  }

  watch.waiting?.('status');
  const status = await ask(
    run,
    'status',
    `run status not served within ${bounds.runTimeoutMs} ms`,
    bounds.requestTimeoutMs,
    (timeoutMs) => client.get(runPath, { timeoutMs }),
  );
  if (!status.ok) return status.result;
  const statusBody = asRecord(status.value.json);
  if (status.value.status !== 200 || statusBody === undefined) {
    return hostFault('status', `GET ${runPath} ${describeAnswer(status.value)}`);
  }

  // Last, once the run is finished and read: the cursor is driven now whatever the host's speed.
  watch.waiting?.('replays');
  const replays = await replayLog(run, eventsPath, followed.value.events);
  if (!replays.ok) return replays.result;

  const observation: RunObservation = {
    runId,
    evalSuiteRef: request.evalSuiteRef,
    agentId: request.agentId,
    pages: followed.value.pages,
    events: followed.value.events,
    runStatus: statusBody.status,
    summary: summary.value.json,
    created: answer.json,
    errors: run.wire.errors(),
    versions: run.wire.versions(),
    replays: replays.value,
    recordVersion: OBSERVATION_RECORD_VERSION,
  };
  return { kind: 'observed', observation };
}
