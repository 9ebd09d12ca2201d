// A report file that `diff` and `badge` may use: read, parsed and checked with verify's own
// recomputation. One that does not verify is refused with its path and its first problem, since a
// comparison or a badge built on an edited report would launder the edit.

import type { EvalGateReport } from '../lib/report/report.ts';
import { UsageError } from './args.ts';
import { readReportFile, verifyWithKeys } from './verify-keys.ts';

/** A report file's JSON; an unreadable or non-JSON file is a usage error naming the path. */
export async function readReportJson(path: string): Promise<unknown> {
  try {
    return await readReportFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === undefined
        ? `the report ${path} is not JSON`
        : `the report ${path} could not be read (${code})`,
    );
  }
}

export async function readVerifiedReport(path: string, command: string): Promise<EvalGateReport> {
  const parsed = await readReportJson(path);
  const result = await verifyWithKeys(parsed, undefined);
  const [first] = result.problems;
  if (first !== undefined) {
    const more = result.problems.length - 1;
    throw new UsageError(
      `the report ${path} does not verify, so ${command} refuses it: ${first}` +
        (more > 0 ? ` (and ${more} more; openwop-eval-gate verify ${path} lists them)` : ''),
    );
  }
  // verifyWithKeys has run the schema check, so it has the report's shape.
  return parsed as EvalGateReport;
}
