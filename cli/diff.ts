// `openwop-eval-gate diff OLD.json NEW.json [--all] [--json | --format text|markdown]`: what
// changed between two verified reports. Only changes are listed unless --all; two runs the suite
// decided by different rules (target kind, strict mode, opt-outs) are refused, other differences
// are named first. A certification lost (by the anchored verdicts) leads and is a regression. Exit 0 when nothing regressed, 1 on a regression, 2 when either report is
// unusable or the two cannot be compared.

import type { ReportDiff } from '../lib/report/diff.ts';
import { diffReports } from '../lib/report/diff.ts';
import { renderDiffMarkdown } from '../lib/report/render/diff-markdown.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { Expectations } from '../lib/report/side-by-side.ts';
import { expectationsOfFixtures } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict/verdict.ts';
import { UsageError } from './args.ts';
import { TrustSources, trustOptionsOf } from './trust-source.ts';
import { readVerifiedReport } from './verified-report.ts';
import { inputLimitsOf } from './input-limits.ts';

type Format = 'text' | 'markdown' | 'json';

export async function diffCommand(
  paths: readonly string[],
  options: Readonly<Record<string, string>>,
  out: (line: string) => void,
): Promise<number> {
  const format = formatOf(options);
  const all = options.all !== undefined;
  const sources = new TrustSources(trustOptionsOf(options));
  const limits = inputLimitsOf(options);
  const old = await readVerifiedReport(paths[0] ?? '', 'diff', sources, limits);
  const now = await readVerifiedReport(paths[1] ?? '', 'diff', sources, limits);
  const [before, after] = [old.report, now.report];
  const diff = diffReports(before, after, await expectationsOf([before, after]), {
    before: old.verdict.certification,
    after: now.verdict.certification,
  });
  if (diff.scope.refusals.length > 0) {
    throw new UsageError(
      `diff refuses to compare ${paths[0] ?? ''} (OLD) with ${paths[1] ?? ''} (NEW): ${diff.scope.refusals.join('; ')}`,
    );
  }
  if (format === 'json') out(JSON.stringify(diff, null, 2));
  else if (format === 'markdown') {
    for (const line of renderDiffMarkdown(diff, all).trimEnd().split('\n')) out(line);
  } else for (const line of renderDiff(diff, all)) out(line);
  return diff.regressions.length === 0 ? EXIT.ok : EXIT.failed;
}

function formatOf(options: Readonly<Record<string, string>>): Format {
  const format = options.format;
  if (format !== undefined && format !== 'text' && format !== 'markdown') {
    throw new UsageError('--format takes text or markdown (--json for JSON)');
  }
  if (options.json !== undefined) {
    if (format !== undefined) throw new UsageError('give --json or --format, not both');
    return 'json';
  }
  return format ?? 'text';
}

/** What a correct host reports for every fixture either report drove. */
function expectationsOf(reports: readonly EvalGateReport[]): Promise<Expectations> {
  return expectationsOfFixtures(
    reports.flatMap((r) => r.requirements.flatMap((row) => row.fixtureId ?? [])),
  );
}

/** The move words are padded to one width so the ids line up. */
const WIDTH = 'REGRESSED'.length;

export function renderDiff(diff: ReportDiff, all: boolean): string[] {
  const lines = [
    ...(diff.certification.regressed
      ? [`CERTIFICATION LOST: certified → not certified: ${diff.certification.reasons.join('; ')}`]
      : []),
    ...(diff.certification.notCompared === undefined
      ? []
      : [`notice: ${diff.certification.notCompared}`]),
    ...diff.scope.warnings.map((w) => `warning: ${w}`),
  ];
  for (const r of diff.requirements) {
    if (r.move === 'unchanged' && !all) continue;
    const to = r.move === 'unchanged' ? '' : ` → ${r.after}`;
    lines.push(`${r.move.padEnd(WIDTH)} ${r.id}: ${r.before}${to}`);
  }
  for (const r of diff.rules) {
    lines.push(
      `${r.change} ${r.requirement} ${r.rule} (${r.severity}; ${r.before} before)${r.regressed ? ' REGRESSED' : ''}`,
    );
  }
  for (const n of diff.numbers) {
    lines.push(
      `number ${n.requirement} ${n.subject} ${n.field}: ${n.before} → ${n.after} (a correct host reports ${n.expected})`,
    );
  }
  for (const p of diff.provenance) lines.push(`${p.what}: ${p.before} → ${p.after}`);
  lines.push(closingLine(diff));
  return lines;
}

function closingLine(diff: ReportDiff): string {
  if (diff.regressions.length > 0) {
    const n = diff.regressions.length;
    return `${n} regression${n === 1 ? '' : 's'}: ${diff.regressions.join('; ')}`;
  }
  const count = (move: string): number => diff.requirements.filter((r) => r.move === move).length;
  const rules = diff.rules.length;
  return `no regression: ${count('IMPROVED')} improved, ${count('CHANGED')} changed, ${count('unchanged')} unchanged of ${diff.requirements.length} compared; ${rules} rule change${rules === 1 ? '' : 's'}`;
}
