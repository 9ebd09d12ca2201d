// What a defect is allowed to change: a run reduced to the parts a contract clause governs, and
// the paths at which two such views differ.

import { call, drive, evalPayloads, type FixtureId } from './harness.ts';

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
  readonly evalPayloads: readonly unknown[];
  readonly terminal: boolean;
  readonly runStatus: unknown;
  readonly summaryStatus: number;
  readonly summary: unknown;
}

export async function view(base: string, id: FixtureId, deadlineMs: number): Promise<View> {
  const discovery = await call(base, 'GET', '/.well-known/openwop');
  const d = await drive(base, id, { deadlineMs });
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
    evalPayloads: evalPayloads(d.events),
    terminal: d.terminal,
    runStatus: d.runStatus,
    summaryStatus: d.summaryStatus,
    summary: d.summary,
  };
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
