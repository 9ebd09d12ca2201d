// For each one-clause defect of the reference host, what `run --generate N --seed 1` catches of
// it. The pack: the first n such that the defective host's run of generated fixture n is not a
// clean pass (packs are prefix-stable, so that n is also the smallest pack size), searched in
// process first (tests/generate/reference-run.ts: events, envelopes, status, summary), then over
// HTTP on the first fixtures (discovery, the cursor, headers, a summary that never comes). The
// host checks: the refusals and the discovery reading every run makes once, whatever its pack,
// made over HTTP after a pack of one; a pack's content cannot drive those clauses.

import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import type { Fixture } from '../../lib/types.ts';
import { DEFECTS, type DefectName } from '../../reference-host/defects.ts';
import { HANGING } from '../matrix/expected.ts';
import { skippingClock } from '../support/skipping-clock.ts';
import { packDir, runPackWithHostChecks, type PackRunOptions } from './pack-drive.ts';
import { referenceObservation } from './reference-run.ts';

export const PACK_SEED = 1;
/** The largest pack a defect may need before the generator owes it a bias. */
export const PACK_LIMIT = 200;

/** How a pack shows the defect: a MUST fails the leg, a SHOULD warns, and over HTTP a gate may
 * leave the leg `inapplicable` (a discovery that withholds what the pack needs) or the suite may
 * not observe the case, which leaves the row `blocked`: the run cannot pass. */
export type Caught = 'MUST' | 'SHOULD' | 'inapplicable' | 'blocked';

export interface SmallestPack {
  readonly defect: DefectName;
  readonly clause: string;
  /** The smallest pack size that shows it the strongest way any pack up to the limit does. */
  readonly n: number | null;
  readonly caught: Caught | null;
  /** The rules that failed on fixture n, MUST first. */
  readonly rules: readonly string[];
  /** In process, or over HTTP for a defect no run in process shows. */
  readonly via: 'run' | 'http';
  /** The host-check rules that failed on the same run, sorted; empty when none did. */
  readonly hostChecks: readonly string[];
}

/** How a defective host's run of one fixture shows the defect, and the rules that failed. */
export async function caughtOn(
  fixture: Fixture,
  defect: DefectName,
): Promise<{ caught: Caught | null; rules: string[] }> {
  const observation = await referenceObservation(fixture, defect);
  const failed = judgeEvalRun(fixture, observation).filter((f) => !f.ok);
  const must = failed.filter((f) => f.severity === 'MUST');
  const rules = [...new Set([...must, ...failed].map((f) => f.rule))];
  if (must.length > 0) return { caught: 'MUST', rules };
  if (failed.length > 0) return { caught: 'SHOULD', rules };
  return { caught: null, rules };
}

const STRENGTH: readonly (Caught | null)[] = [null, 'inapplicable', 'SHOULD', 'blocked', 'MUST'];

export async function smallestPack(
  defect: DefectName,
  pack: readonly Fixture[],
): Promise<SmallestPack> {
  const clause = DEFECTS.find((d) => d.name === defect)?.clause ?? '';
  let best: SmallestPack = {
    defect,
    clause,
    n: null,
    caught: null,
    rules: [],
    via: 'run',
    hostChecks: [],
  };
  for (const [i, fixture] of pack.entries()) {
    const { caught, rules } = await caughtOn(fixture, defect);
    if (STRENGTH.indexOf(caught) > STRENGTH.indexOf(best.caught)) {
      best = { ...best, n: i + 1, caught, rules, via: 'run' };
    }
    if (best.caught === 'MUST') break;
  }
  return best;
}

/** How many fixtures the HTTP search tries: what only HTTP shows, it shows on any run. */
export const HTTP_LIMIT = 3;

/** How the k-th case of a pack driven over HTTP shows the defect. */
export async function caughtOverHttp(
  defect: DefectName,
  k: number,
  dir: string,
): Promise<{ caught: Caught | null; rules: string[] }> {
  const request = { count: k, seed: PACK_SEED };
  const { cases } = await runPackWithHostChecks(request, dir, runOptions(defect));
  const decision = cases[k - 1]?.decision;
  if (decision === undefined) return { caught: null, rules: [] };
  const failed = decision.findings.filter((f) => !f.ok);
  const must = failed.filter((f) => f.severity === 'MUST');
  const rules = [...new Set([...must, ...failed].map((f) => f.rule))];
  if (decision.disposition === 'executed-fail') {
    return { caught: 'MUST', rules: rules.length > 0 ? rules : ['gate'] };
  }
  if (decision.disposition === 'inapplicable') return { caught: 'inapplicable', rules: ['gate'] };
  if (decision.disposition === 'blocked') return { caught: 'blocked', rules: [] };
  if (failed.length > 0) return { caught: 'SHOULD', rules };
  return { caught: null, rules };
}

async function overHttp(row: SmallestPack, dir: string): Promise<SmallestPack> {
  for (let k = 1; k <= HTTP_LIMIT; k += 1) {
    const { caught, rules } = await caughtOverHttp(row.defect, k, dir);
    if (caught !== null) return { ...row, n: k, caught, rules, via: 'http' };
  }
  return row;
}

/**
 * A run that never ends blocks its case at a short deadline, and the waits its drive takes between
 * requests (a summary refused 409 forever) pass at once, so the case blocks in the time its
 * requests take rather than in the deadline's seconds. Any other defect's drive keeps the real
 * clock: a host that is only slow must get its real time.
 */
function runOptions(defect: DefectName): PackRunOptions {
  if (!HANGING.has(defect)) return { defect, runTimeoutMs: RUN_TIMEOUT_MS };
  return { defect, runTimeoutMs: HANGING_RUN_TIMEOUT_MS, clock: skippingClock() };
}

const RUN_TIMEOUT_MS = 60_000;
const HANGING_RUN_TIMEOUT_MS = 5_000;

/** The host-check rules that fail on a defective host's run of the pack of one, sorted. */
export async function hostChecksFailing(defect: DefectName, dir: string): Promise<string[]> {
  const request = { count: 1, seed: PACK_SEED };
  const { hostChecks } = await runPackWithHostChecks(request, dir, runOptions(defect));
  return [...new Set(hostChecks.findings.filter((f) => !f.ok).map((f) => f.rule))].sort();
}

export async function smallestPacks(): Promise<SmallestPack[]> {
  const pack = generatePack({ count: PACK_LIMIT, seed: PACK_SEED });
  const { dir, remove } = await packDir(HTTP_LIMIT, PACK_SEED);
  try {
    const rows: SmallestPack[] = [];
    for (const { name } of DEFECTS) {
      const found = await smallestPack(name, pack);
      const row = found.caught === null ? await overHttp(found, dir) : found;
      rows.push({ ...row, hostChecks: await hostChecksFailing(name, dir) });
    }
    return rows;
  } finally {
    await remove();
  }
}
