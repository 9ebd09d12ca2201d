// What a defect is allowed to change: a run reduced to the parts a contract clause governs, and
// the paths at which two such views differ.

import {
  call,
  drive,
  evalPayloads,
  runPath,
  type Drive,
  type FixtureId,
  type Page,
} from './harness.ts';

export interface View {
  readonly discovery: unknown;
  readonly createStatus: number;
  /** The wire shapes, reduced to what is the same from run to run (no ports, no timestamps). */
  readonly createKeys: readonly string[];
  readonly runId: unknown;
  readonly pageKeys: readonly string[];
  readonly envelopeKeys: readonly string[];
  readonly firstEventId: unknown;
  readonly summaryRefusal: unknown;
  readonly versions: readonly string[];
  readonly log: readonly string[];
  /** The members of each run.completed payload, in log order. */
  readonly runCompleted: readonly (readonly string[])[];
  readonly evalPayloads: readonly unknown[];
  readonly terminal: boolean;
  readonly runStatus: unknown;
  readonly summaryStatus: number;
  readonly summary: unknown;
  /** The finished log read again through the cursor (contract §6). */
  readonly rereads: Rereads;
}

export interface Rereads {
  /** `as first read` when a poll after sequence 2 returned the first read's events after it. */
  readonly afterThird: 'as first read' | readonly number[];
  /** The sequences a poll after the log's last sequence returned. */
  readonly afterLast: readonly number[];
  /** The lastSequence each re-read answered: after sequence 2, after the last, past the end. */
  readonly lastSequences: readonly unknown[];
}

/** The view of a run of `id`, driven until it ends or `hung` says it never will (see `drive`). */
export async function view(
  base: string,
  id: FixtureId,
  deadlineMs: number,
  hung?: () => boolean,
): Promise<View> {
  const discovery = await call(base, 'GET', '/.well-known/openwop');
  const d = await drive(base, id, { deadlineMs, ...(hung === undefined ? {} : { hung }) });
  const keys = (docs: readonly unknown[]): string[] =>
    [...new Set(docs.flatMap((o) => Object.keys(o as object)))].sort();
  return {
    discovery: discovery.body ?? discovery.text,
    createStatus: d.createStatus,
    createKeys: keys([d.createBody ?? {}]),
    runId: withoutCounter(d.runId),
    pageKeys: keys(d.pages),
    envelopeKeys: keys(d.events),
    firstEventId: withoutCounter(d.events[0]?.eventId),
    summaryRefusal: d.summaryRefusals[0],
    versions: [...new Set([discovery.headers.get('openwop-version') ?? 'absent', ...d.versions])],
    log: d.events.map((e) => e.type),
    runCompleted: d.events
      .filter((e) => e.type === 'run.completed')
      .map((e) => Object.keys(e.payload).sort()),
    evalPayloads: evalPayloads(d.events),
    terminal: d.terminal,
    runStatus: d.runStatus,
    summaryStatus: d.summaryStatus,
    summary: d.summary,
    rereads: await reread(base, d),
  };
}

/**
 * Reads the log again after its third event and after its last. A run that never started reads
 * as a conforming one: which clause stopped it is the business of the other fields.
 */
async function reread(base: string, d: Drive): Promise<Rereads> {
  const runId = d.runId;
  const last = d.events.at(-1)?.sequence;
  if (runId === undefined || last === undefined)
    return { afterThird: 'as first read', afterLast: [], lastSequences: [] };
  const lastSequences: unknown[] = [];
  const after = async (n: number): Promise<number[]> => {
    const path = runPath(runId, `/events/poll?afterSequence=${n}&timeout=0`);
    const page = (await call(base, 'GET', path)).body as Page | undefined;
    lastSequences.push(page?.lastSequence);
    return (page?.events ?? []).map((e) => e.sequence);
  };
  const third = await after(2);
  const firstRead = d.events.map((e) => e.sequence).filter((n) => n > 2);
  const same = third.length === firstRead.length && third.every((n, i) => n === firstRead[i]);
  const afterLast = await after(last);
  await after(last + 1);
  return { afterThird: same ? 'as first read' : third, afterLast, lastSequences };
}

/** Ids number runs per host; the count of runs a host served before is no clause's business. */
function withoutCounter(id: unknown): unknown {
  return typeof id === 'string' ? id.replace(/run-\d{12}/, 'run-N') : id;
}

/**
 * Dotted paths at which `a` and `b` differ. Arrays of different lengths report `path.length`
 * and then compare their common prefix; an object member present on one side only is reported at
 * its own path.
 */
export function diffPaths(a: unknown, b: unknown, path = ''): string[] {
  const at = (k: string | number): string => (path === '' ? String(k) : `${path}.${k}`);
  if (Array.isArray(a) && Array.isArray(b)) {
    const out = a.length === b.length ? [] : [at('length')];
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      out.push(...diffPaths(a[i], b[i], at(i)));
    }
    return out;
  }
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => diffPaths(a[k], b[k], at(k)));
  }
  return Object.is(a, b) ? [] : [path];
}
