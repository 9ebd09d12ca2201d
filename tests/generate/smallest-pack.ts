// For each one-clause defect of the reference host, the smallest generated pack (at seed 1) that
// catches it: the first n such that the witness fails a finding on the defective host's run of
// generated fixture n. Packs are prefix-stable, so that n is also the smallest pack size. Runs
// are in process (tests/generate/reference-run.ts): what a run shows, its events, envelopes,
// status and summary, is seen; what only HTTP shows (discovery, the cursor, headers, refusals)
// is not, and such a defect is named as out of a generated pack's reach.

import { judgeEvalRun, unjudgedLimits } from '../../lib/eval-gate-witness.ts';
import { generatePack } from '../../lib/generate/pack.ts';
import type { Fixture } from '../../lib/types.ts';
import { DEFECTS, type DefectName } from '../../reference-host/defects.ts';
import { referenceObservation } from './reference-run.ts';

export const PACK_SEED = 1;
/** The largest pack a defect may need before the generator owes it a bias. */
export const PACK_LIMIT = 200;

/** How a pack shows the defect: a MUST fails the leg, a SHOULD warns, `inapplicable` names a
 * limit the host gives no figures for, so the leg cannot judge it (docs/decisions.md). */
export type Caught = 'MUST' | 'SHOULD' | 'inapplicable';

export interface SmallestPack {
  readonly defect: DefectName;
  readonly clause: string;
  /** The smallest pack size that shows it the strongest way any pack up to the limit does. */
  readonly n: number | null;
  readonly caught: Caught | null;
  /** The rules that failed on fixture n, MUST first. */
  readonly rules: readonly string[];
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
  if (unjudgedLimits(fixture, observation).length > 0) return { caught: 'inapplicable', rules };
  return { caught: null, rules };
}

const STRENGTH: readonly (Caught | null)[] = [null, 'inapplicable', 'SHOULD', 'MUST'];

export async function smallestPack(
  defect: DefectName,
  pack: readonly Fixture[],
): Promise<SmallestPack> {
  const clause = DEFECTS.find((d) => d.name === defect)?.clause ?? '';
  let best: SmallestPack = { defect, clause, n: null, caught: null, rules: [] };
  for (const [i, fixture] of pack.entries()) {
    const { caught, rules } = await caughtOn(fixture, defect);
    if (STRENGTH.indexOf(caught) > STRENGTH.indexOf(best.caught)) {
      best = { defect, clause, n: i + 1, caught, rules };
    }
    if (best.caught === 'MUST') break;
  }
  return best;
}

export async function smallestPacks(): Promise<SmallestPack[]> {
  const pack = generatePack({ count: PACK_LIMIT, seed: PACK_SEED });
  const rows: SmallestPack[] = [];
  for (const { name } of DEFECTS) rows.push(await smallestPack(name, pack));
  return rows;
}
