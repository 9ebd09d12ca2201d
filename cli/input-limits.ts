// The reader that turns the flags raising the limits on what the report-reading commands read
// (lib/bounded-input.ts; the flags themselves are in cli/flags.ts) into limits.

import { DEFAULT_INPUT_LIMITS, INPUT_LIMIT_FLAGS, type InputLimits } from '../lib/bounded-input.ts';
import { UsageError } from './args.ts';

const LIMITS = Object.keys(INPUT_LIMIT_FLAGS) as (keyof InputLimits)[];

/** The limits the flags set, each a whole number of at least 1; a flag not given keeps its default. */
export function inputLimitsOf(options: Readonly<Record<string, string>>): InputLimits {
  const limits: Record<string, number> = { ...DEFAULT_INPUT_LIMITS };
  for (const limit of LIMITS) {
    const flag = INPUT_LIMIT_FLAGS[limit];
    const given = options[flag.slice(2)];
    if (given === undefined) continue;
    const value = Number(given);
    if (!/^\d+$/.test(given) || value < 1 || !Number.isSafeInteger(value)) {
      throw new UsageError(
        `${flag} takes a whole number of at least 1, such as ${flag} ${DEFAULT_INPUT_LIMITS[limit]}`,
      );
    }
    limits[limit] = value;
  }
  return limits as unknown as InputLimits;
}
