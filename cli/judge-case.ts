// `openwop-eval-gate judge REPORT --case ID`: one generated case of a report judged again offline,
// from what the run recorded of it (the case's summary and events in the pack's sidecar beside the
// report, or inline in a report that kept its cases there), against the case regenerated from its
// id. The sidecar is read only when its bytes are the ones the report's digest names.

import { dirname } from 'node:path';
import { sidecarRecordsById } from '../lib/decide/sidecar-records.ts';
import { sidecarReader } from '../lib/report/generated-sidecar.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import type { GeneratedCaseRecord } from '../lib/types.ts';
import { JudgeInputError, judgeSummary, type Judgement } from './judge.ts';
import { readReportJson } from './verified-report.ts';
import { reportShapeProblem } from './verify.ts';

/** The cases a report recorded for its generated pack, with the fixture id `id` among them. */
async function recordedCase(
  report: EvalGateReport,
  path: string,
  id: string,
): Promise<GeneratedCaseRecord> {
  const pack = report.requirements.find((row) => row.generated !== undefined)?.generated;
  if (pack === undefined) {
    throw new JudgeInputError(`the report ${path} drove no generated pack, so it holds no case`);
  }
  let found: GeneratedCaseRecord | undefined;
  if ('cases' in pack) {
    found = pack.cases.find((c) => c.fixtureId === id);
  } else {
    const read = sidecarReader(dirname(path))(pack.sidecar.file);
    try {
      found = (await sidecarRecordsById(read, new Set([id]), true)).get(id)?.record;
    } catch (error) {
      throw new JudgeInputError(
        `the pack's sidecar ${pack.sidecar.file} beside ${path} cannot be read: ${(error as Error).message}`,
      );
    }
    if (read.digest().sha256 !== pack.sidecar.sha256) {
      throw new JudgeInputError(
        `the pack's sidecar ${pack.sidecar.file} is not the one the report's digest names; verify ${path} says more`,
      );
    }
  }
  if (found === undefined) {
    throw new JudgeInputError(
      `--case ${id} is not a case the report ${path} recorded (the pack of ${pack.count} at seed ${pack.seed}; its generated row names each case)`,
    );
  }
  return found;
}

/** The case judged from its recorded summary and events, as `judge SUMMARY --events` would. */
export async function judgeReportedCase(path: string, id: string): Promise<Judgement> {
  const parsed = await readReportJson(path);
  const shape = reportShapeProblem(parsed);
  if (shape !== undefined) throw new JudgeInputError(`${path}: ${shape}`);
  const record = await recordedCase(parsed as EvalGateReport, path, id);
  const observation = record.observation;
  if (observation === undefined) {
    throw new JudgeInputError(
      `--case ${id}: the run recorded no observation of it (${record.disposition}${record.reason === undefined ? '' : `: ${record.reason}`}), so there is no summary to judge`,
    );
  }
  return judgeSummary(observation.summary, observation.events, id);
}
