// The text of the report file. A reader gets it indented, except when it carries a generated
// pack inline (reports before the sidecar): every case keeps its observation so that verify can
// decide it again, and indentation alone doubles the size of those (the pack of 200 at seed 1:
// 35 MB indented, 16 MB without). A pack streamed to its sidecar leaves the report small.
// The digests and the signature cover the canonical JSON, so the layout changes neither.

import type { EvalGateReport } from './report.ts';

export function holdsGeneratedPack(report: Pick<EvalGateReport, 'requirements'>): boolean {
  return report.requirements.some((row) => row.generated !== undefined && 'cases' in row.generated);
}

export function reportText(report: EvalGateReport): string {
  const text = holdsGeneratedPack(report)
    ? JSON.stringify(report)
    : JSON.stringify(report, null, 2);
  return `${text}\n`;
}
