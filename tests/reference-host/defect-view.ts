// What a defect is allowed to change: a run reduced to the parts a contract clause governs, and
// the paths at which two such views differ.

import { call, drive, evalPayloads, type FixtureId } from './harness.ts';

export interface View {
  readonly discovery: unknown;
  readonly createStatus: number;
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
  return {
    discovery: discovery.body ?? discovery.text,
    createStatus: d.createStatus,
    log: d.events.map((e) => e.type),
    evalPayloads: evalPayloads(d.events),
    terminal: d.terminal,
    runStatus: d.runStatus,
    summaryStatus: d.summaryStatus,
    summary: d.summary,
  };
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
