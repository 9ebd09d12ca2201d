// `openwop-eval-gate report REPORT.json --html OUT`: the HTML page of a report that verifies, the
// same page a run writes beside its report. A report that does not verify is refused: a page
// built on an edited report would show the edit as the suite's verdict.

import { writeFile } from 'node:fs/promises';
import { trialsFor } from '../lib/report/html/inputs.ts';
import { renderHtml } from '../lib/report/html/render-html.ts';
import { runVerdict } from '../lib/report/run-verdict.ts';
import { expectationsFor } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict.ts';
import { UsageError } from './args.ts';
import { readVerifiedReport } from './verified-report.ts';

export async function reportCommand(
  path: string,
  htmlPath: string | undefined,
  out: (line: string) => void,
): Promise<number> {
  if (htmlPath === undefined) {
    throw new UsageError('report needs --html OUT, such as --html eval-gate-report.html');
  }
  const report = await readVerifiedReport(path, 'report');
  const [expectations, trials] = await Promise.all([expectationsFor(report), trialsFor(report)]);
  await writeFile(htmlPath, renderHtml(report, expectations, runVerdict(report), trials));
  out(`wrote ${htmlPath}`);
  return EXIT.ok;
}
