// A generated case named on the command line (`run --case ID`, `judge --fixture ID --generate N`)
// must be a case of the pack the line names: anything else is a one-line configuration error that
// says where the ids are found.

import { UsageError } from './args.ts';

export interface PackNamed {
  readonly count: number;
  readonly seed: number;
}

/** The fixture `id` names in `pack`; refuses an id that is not one of its cases. */
export async function caseOfPack(flag: string, id: string, pack: PackNamed): Promise<string> {
  // The generator brings fast-check with it: loaded only when a case is named.
  const { generatedId, parseGeneratedId, selectedFixtures } =
    await import('../lib/generate/pack.ts');
  if ([...selectedFixtures({ ...pack, case: id })].length === 1) return id;
  // Only an id's own shape is echoed: a mistyped value may hold anything, a secret included.
  const named =
    parseGeneratedId(id) === null ? `${flag} takes a generated case id:` : `${flag} ${id} is not`;
  const first = generatedId(pack.seed, 1);
  const last = generatedId(pack.seed, pack.count);
  const range = pack.count === 1 ? first : `${first} to ${last}`;
  throw new UsageError(
    `${named} a case of the pack of ${pack.count} at seed ${pack.seed}, whose ids are ${range}; ` +
      `the report's generated row names each case, and openwop-eval-gate fixtures --out DIR --generate ${pack.count} --seed ${pack.seed} writes them`,
  );
}
