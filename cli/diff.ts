// `openwop-eval-gate diff OLD.json NEW.json [--json]`: what changed between two verified reports.
// Exit 0 when nothing regressed, 1 on a regression, 2 when either report is unusable.

import type { ReportDiff } from '../lib/report/diff.ts';
import { diffReports } from '../lib/report/diff.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { Expectations } from '../lib/report/side-by-side.ts';
import { expectationsOfFixtures } from '../lib/report/side-by-side.ts';
import { EXIT } from '../lib/report/verdict.ts';
import { readVerifiedReport } from './verified-report.ts';

export async function diffCommand(
  paths: readonly string[],
  json: boolean,
  out: (line: string) => void,
): Promise<number> {
  const before = await readVerifiedReport(paths[0] ?? '', 'diff');
  const after = await readVerifiedReport(paths[1] ?? '', 'diff');
  const diff = diffReports(before, after, await expectationsOf([before, after]));
  if (json) out(JSON.stringify(diff, null, 2));
  else for (const line of renderDiff(diff)) out(line);
  return diff.regressions.length === 0 ? EXIT.ok : EXIT.failed;
}

/** What a correct host reports for every fixture either report drove. */
function expectationsOf(reports: readonly EvalGateReport[]): Promise<Expectations> {
  return expectationsOfFixtures(
    reports.flatMap((r) => r.requirements.flatMap((row) => row.fixtureId ?? [])),
  );
}

export function renderDiff(diff: ReportDiff): string[] {
  const lines: string[] = [];
  for (const r of diff.requirements) {
    const same = r.before === r.after;
    lines.push(
      `${r.regressed ? 'REGRESSED' : same ? 'unchanged' : 'changed  '} ${r.id}: ${r.before ?? 'absent'}${same ? '' : ` → ${r.after ?? 'absent'}`}`,
    );
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
  const moved = diff.requirements.filter((r) => r.before !== r.after).length;
  lines.push(
    diff.regressions.length === 0
      ? `no regression: ${moved} requirement${moved === 1 ? '' : 's'} changed, ${diff.rules.length} rule change${diff.rules.length === 1 ? '' : 's'}`
      : `${diff.regressions.length} regression${diff.regressions.length === 1 ? '' : 's'}: ${diff.regressions.join('; ')}`,
  );
  return lines;
}
