// The default job: pick the target (the configured host, or the embedded reference host), run
// every leg, write the report, and return the exit status of contract §10.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SuiteConfig } from '../lib/env.ts';
import type { LegOutcome } from '../lib/types.ts';
import { runSuite } from './run-suite.ts';
import { startEmbeddedHost } from './embedded-host.ts';
import { closingLine, exitCodeFor } from './verdict.ts';

export interface ConformanceResult {
  readonly outcomes: readonly LegOutcome[];
  readonly exitCode: number;
  readonly reportPath: string;
}

export interface ConformanceOptions {
  readonly log: (line: string) => void;
  readonly reporters?: readonly string[];
}

export async function runConformance(
  config: SuiteConfig,
  options: ConformanceOptions,
): Promise<ConformanceResult> {
  const embedded = config.baseUrl === undefined ? await startEmbeddedHost() : undefined;
  try {
    const effective: SuiteConfig =
      embedded === undefined ? config : { ...config, baseUrl: embedded.url, apiKey: embedded.apiKey };
    options.log(
      embedded === undefined
        ? `target: ${effective.baseUrl ?? ''}`
        : `target: the embedded reference host at ${embedded.url} (no OPENWOP_BASE_URL given; this is not evidence about any other host)`,
    );
    const run = await runSuite(effective, options.reporters === undefined ? {} : { reporters: options.reporters });
    const dispositions = run.outcomes.map((o) => o.disposition);
    const report = {
      suite: 'openwop-eval-gate-conformance',
      target: { baseUrl: effective.baseUrl, embedded: embedded !== undefined },
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      requirements: run.outcomes.map((o) => ({
        id: o.requirement,
        disposition: o.disposition,
        assertions: o.assertions,
        ...(o.reason === undefined ? {} : { reason: o.reason }),
      })),
    };
    await mkdir(config.reportDir, { recursive: true });
    const reportPath = join(config.reportDir, 'eval-gate-report.json');
    await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    for (const o of run.outcomes) {
      options.log(`${o.disposition.padEnd(13)} ${o.requirement}${o.reason === undefined ? '' : `: ${o.reason}`}`);
    }
    options.log(`report: ${reportPath}`);
    options.log(closingLine(dispositions));
    return { outcomes: run.outcomes, exitCode: exitCodeFor(dispositions), reportPath };
  } finally {
    await embedded?.close();
  }
}
