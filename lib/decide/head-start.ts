// What a host leg does before its run is observed: pass its gates, load its fixture, and create
// its run. The process that starts vitest does the last step early (startRuns), so a slow host's
// run time overlaps vitest's start-up instead of following it; the leg in the worker then gets
// the recorded answer to its POST /runs as if it had sent it itself (replayingClient). Every
// decision is taken again in the worker from the same inputs, so a head start can save time but
// never change a disposition: a leg that would not drive ignores it, and a fixture that fails to
// load never has a run created for it.

import type { EvalRunRequest } from '../observe/driver.ts';
import type { HostClient, HostResponse, RequestOptions } from '../observe/host-client.ts';
import type { LegDefinition } from '../legs.ts';
import type { HeadStart, LegTarget, RecordedAnswer } from './leg-target.ts';
import type { Disposition, Fixture } from '../types.ts';
import { TransportError } from '../observe/errors.ts';
import { loadFixture } from '../fixtures.ts';
import { checkGates } from './gates.ts';

export type HostLegPlan =
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'gated'; readonly disposition: Disposition; readonly reason: string }
  | {
      readonly kind: 'drive';
      readonly target: LegTarget;
      readonly fixture: Fixture;
      readonly request: EvalRunRequest;
    };

/** Gates, then the fixture: a leg drives only a host that qualifies, with a fixture that loaded. */
export async function planHostLeg(
  leg: LegDefinition & { readonly fixtureId: string },
  target: LegTarget | undefined,
): Promise<HostLegPlan> {
  if (target === undefined) {
    return {
      kind: 'blocked',
      reason: 'no host to drive: OPENWOP_BASE_URL is not set for this run',
    };
  }
  if (!target.discovery.ok) {
    return { kind: 'blocked', reason: `discovery unreadable: ${target.discovery.reason}` };
  }
  const gate = checkGates(leg, target.discovery.document, target.config);
  if (!gate.proceed) return { kind: 'gated', disposition: gate.disposition, reason: gate.reason };
  const loaded = await loadFixture(leg.fixtureId);
  if (!loaded.ok) {
    return { kind: 'blocked', reason: `the suite's fixture failed to load: ${loaded.reason}` };
  }
  const fixture = loaded.fixture;
  const request = {
    evalSuiteRef: `${fixture.suite.suiteId}@${fixture.suite.version}`,
    agentId: fixture.agentId,
  };
  return { kind: 'drive', target, fixture, request };
}

const RUNS_PATH = '/runs';

/** The body lib/observe/driver.ts sends for a request; a replay needs the same bytes to apply. */
function runBody(request: EvalRunRequest): { readonly mode: 'eval' } & EvalRunRequest {
  return { mode: 'eval', ...request };
}

/**
 * Plans every host leg and creates the run of each that would drive, all at once. A leg that
 * would not drive gets no head start (the worker decides it again), and so does one whose POST
 * threw something other than a TransportError (the worker then creates its run itself).
 */
export async function startRuns(
  target: LegTarget,
  legs: readonly LegDefinition[],
  now: () => number = Date.now,
): Promise<HeadStart[]> {
  const starts = await Promise.all(
    legs.map(async (leg): Promise<HeadStart | undefined> => {
      const fixtureId = leg.fixtureId;
      if (fixtureId === undefined) return undefined;
      const startedAt = now();
      const plan = await planHostLeg({ ...leg, fixtureId }, target);
      if (plan.kind !== 'drive') return undefined;
      const body = runBody(plan.request);
      // The driver's first attempt allows the same time: its request deadline, cut to the run's.
      const timeoutMs = Math.min(
        target.config.bounds.requestTimeoutMs,
        target.config.bounds.runTimeoutMs,
      );
      const answer = await record(() => target.client.post(RUNS_PATH, body, { timeoutMs }));
      return answer === undefined
        ? undefined
        : { legId: leg.id, startedAt, body: JSON.stringify(body), answer };
    }),
  );
  return starts.filter((s): s is HeadStart => s !== undefined);
}

async function record(send: () => Promise<HostResponse>): Promise<RecordedAnswer | undefined> {
  try {
    return { kind: 'response', response: await send() };
  } catch (error) {
    if (!(error instanceof TransportError)) return undefined;
    const prefix = `${error.method} ${error.path}: `;
    const detail = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    return {
      kind: 'transport-error',
      code: error.code,
      method: error.method,
      path: error.path,
      detail,
    };
  }
}

/**
 * `client`, except that the first POST /runs with the head start's body gets the recorded answer
 * (or throws the recorded TransportError) without a request. Every other call, a retry of that
 * POST included, goes to the host.
 */
export function replayingClient(client: HostClient, start: HeadStart): HostClient {
  let pending: RecordedAnswer | undefined = start.answer;
  return {
    baseUrl: client.baseUrl,
    get: (path: string, options?: RequestOptions) => client.get(path, options),
    post: async (path: string, body: unknown, options?: RequestOptions) => {
      const answer = pending;
      if (answer !== undefined && path === RUNS_PATH && JSON.stringify(body) === start.body) {
        pending = undefined;
        if (answer.kind === 'response') return answer.response;
        throw new TransportError(answer.code, answer.method, answer.path, answer.detail);
      }
      return client.post(path, body, options);
    },
    close: () => client.close(),
  };
}
