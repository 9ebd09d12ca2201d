// `openwop-eval-gate report REPORT.json --html OUT`: the HTML page of a report that verifies,
// with the verdict a verifier stands behind (anchored as verify anchors it: the same flags choose
// where a key may come from). A report that does not verify is refused: a page built on an
// edited report would show the edit as the suite's verdict.

import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sidecarReader } from '../lib/report/generated-sidecar.ts';
import { pageViewsFor } from '../lib/report/page-inputs.ts';
import { renderHtml } from '../lib/report/render/html/render-html.ts';
import { expectationsFor } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { UsageError } from './args.ts';
import { TrustSources, trustOptionsOf } from './trust-source.ts';
import { readVerifiedReport } from './verified-report.ts';
import { inputLimitsOf } from './input-limits.ts';

export async function reportCommand(
  path: string,
  options: Readonly<Record<string, string>>,
  out: (line: string) => void,
): Promise<number> {
  const htmlPath = options.html;
  if (htmlPath === undefined) {
    throw new UsageError('report needs --html OUT, such as --html eval-gate-report.html');
  }
  const sources = new TrustSources(trustOptionsOf(options));
  const limits = inputLimitsOf(options);
  const { report, verdict, decidedCases } = await readVerifiedReport(
    path,
    'report',
    sources,
    limits,
  );
  const [expectations, views] = await Promise.all([
    expectationsFor(report),
    pageViewsFor(report, decidedCases, sidecarReader(dirname(path), limits)),
  ]);
  try {
    await writeFile(htmlPath, renderHtml(report, verdict, expectations, views));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`the page could not be written to ${htmlPath} (${code})`);
  }
  out(`wrote ${htmlPath}`);
  return EXIT.ok;
}
