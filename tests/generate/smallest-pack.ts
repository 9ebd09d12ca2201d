// For each one-clause defect of the reference host, the smallest generated pack (at seed 1) that
// catches it: the first n such that the witness fails a finding on the defective host's run of
// generated fixture n. Packs are prefix-stable, so that n is also the smallest pack size. Runs
// are in process (tests/generate/reference-run.ts): what a run shows, its events, envelopes,
// status and summary, is seen; what only HTTP shows (discovery, the cursor, headers, refusals)
// is not, and such a defect is named as out of a generated pack's reach.

import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import type { Fixture } from '../../lib/types.ts';
import { DEFECTS, type DefectName } from '../../reference-host/defects.ts';
import { drivePack, packDir } from './pack-drive.ts';
import { referenceObservation } from './reference-run.ts';

export const PACK_SEED = 1;
/** The largest pack a defect may need before the generator owes it a bias. */
export const PACK_LIMIT = 200;

/** How a pack shows the defect: a MUST fails the leg, a SHOULD warns, and over HTTP a gate may
 * leave the leg `inapplicable` (a discovery that withholds what the pack needs). */
export type Caught = 'MUST' | 'SHOULD' | 'inapplicable';

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

const STRENGTH: readonly (Caught | null)[] = [null, 'inapplicable', 'SHOULD', 'MUST'];

export async function smallestPack(
  defect: DefectName,
  pack: readonly Fixture[],
): Promise<SmallestPack> {
  const clause = DEFECTS.find((d) => d.name === defect)?.clause ?? '';
  let best: SmallestPack = { defect, clause, n: null, caught: null, rules: [], via: 'run' };
  for (const [i, fixture] of pack.entries()) {
    const { caught, rules } = await caughtOn(fixture, defect);
    if (STRENGTH.indexOf(caught) > STRENGTH.indexOf(best.caught)) {
      best = { defect, clause, n: i + 1, caught, rules, via: 'run' };
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
  const cases = await drivePack({ count: k, seed: PACK_SEED }, dir, defect);
  const decision = cases[k - 1]?.decision;
  if (decision === undefined) return { caught: null, rules: [] };
  const failed = decision.findings.filter((f) => !f.ok);
  const must = failed.filter((f) => f.severity === 'MUST');
  const rules = [...new Set([...must, ...failed].map((f) => f.rule))];
  if (decision.disposition === 'executed-fail') {
    return { caught: 'MUST', rules: rules.length > 0 ? rules : ['gate'] };
  }
  if (decision.disposition === 'inapplicable') return { caught: 'inapplicable', rules: ['gate'] };
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

export async function smallestPacks(): Promise<SmallestPack[]> {
  const pack = generatePack({ count: PACK_LIMIT, seed: PACK_SEED });
  const { dir, remove } = await packDir(HTTP_LIMIT, PACK_SEED);
  try {
    const rows: SmallestPack[] = [];
    for (const { name } of DEFECTS) {
      const row = await smallestPack(name, pack);
      rows.push(row.caught === null ? await overHttp(row, dir) : row);
    }
    return rows;
  } finally {
    await remove();
  }
}
