// `openwop-eval-gate badge REPORT [--out FILE]`: the shields.io endpoint JSON of a verified
// report, printed or written to FILE, rendered from the anchored verdict: green only when a key
// outside the report vouches. A report that does not verify gets no badge (exit 2).

import { writeFile } from 'node:fs/promises';
import { badgeFor } from '../lib/report/render/badge.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { UsageError } from './args.ts';
import { TrustSources, trustOptionsOf } from './trust-source.ts';
import { readVerifiedReport } from './verified-report.ts';
import { inputLimitsOf } from './input-limits.ts';

export async function badgeCommand(
  path: string,
  options: Readonly<Record<string, string>>,
  out: (line: string) => void,
): Promise<number> {
  const outFile = options.out;
  const sources = new TrustSources(trustOptionsOf(options));
  const { verdict } = await readVerifiedReport(path, 'badge', sources, inputLimitsOf(options));
  const badge = badgeFor(verdict);
  const text = JSON.stringify(badge);
  if (outFile === undefined) {
    out(text);
    return EXIT.ok;
  }
  try {
    await writeFile(outFile, `${text}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`the badge could not be written to ${outFile} (${code})`);
  }
  out(`wrote ${outFile}: ${badge.message} (${badge.color})`);
  return EXIT.ok;
}
