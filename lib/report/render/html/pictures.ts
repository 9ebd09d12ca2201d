// The pictures of one requirement's run: each trial's scores against its gating score, the stated
// latencies with their p95 and limit, the stated cost against its limit, and the events on a
// time line under the poll pages that read them.

import type { Finding, RunObservation } from '../../../types.ts';
import { costChart, latencyChart, timelineChart, trialScoreChart } from './charts.ts';
import type { TrialBar } from './charts.ts';
import { evidenceOf, ids } from './evidence.ts';
import type { FixtureTrials } from './trajectory.ts';

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

function reportedScore(obs: RunObservation, taskId: string, trial: number): number | undefined {
  for (const e of obs.events) {
    const payload = record(e.payload);
    if (e.type === 'eval.scored' && payload?.taskId === taskId && payload.trial === trial) {
      return typeof payload.score === 'number' ? payload.score : undefined;
    }
  }
  return undefined;
}

const swatch = (cls: string, text: string): string =>
  `<span><i class="swatch ${cls}"></i>${text}</span>`;

const LEGEND =
  '<p class="legend">' +
  swatch('reported', 'reported score (eval.scored)') +
  swatch('score', 'expected score') +
  swatch('gating', 'expected gating score') +
  swatch('mean', "task's mean gating score (decides the task)") +
  swatch('limit', 'passScore') +
  '</p>';

const meanOf = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

export function pictures(
  obs: RunObservation,
  findings: readonly Finding[],
  trials: FixtureTrials | undefined,
  p: string,
): string {
  const parts: string[] = [];
  if (trials !== undefined) {
    const bars: TrialBar[] = trials.tasks.flatMap((task, t) =>
      task.trials.map((trial) => ({
        label: `${task.taskId} #${trial.trial}`,
        reported: reportedScore(obs, task.taskId, trial.trial),
        score: trial.score,
        gating: trial.gatingScore,
        href: ids.trial(p, t, trial.trial),
      })),
    );
    parts.push(
      '<h4>Scores by trial</h4>',
      LEGEND,
      trialScoreChart(
        bars,
        trials.passScore,
        trials.tasks.map((task) => ({
          label: `mean ${task.taskId}`,
          mean: meanOf(task.trials.map((t) => t.gatingScore)),
        })),
      ),
    );
    for (const limit of trials.limits) {
      if (limit.threshold === 'maxP95LatencyMs') {
        const latencies = trials.tasks.flatMap((task) =>
          task.trials.flatMap((trial) =>
            trial.latencyMs === null
              ? []
              : [{ label: `${task.taskId} #${trial.trial}`, ms: trial.latencyMs }],
          ),
        );
        parts.push(
          `<h4>Stated trial latencies: p95 ${limit.figure} ms against maxP95LatencyMs ${limit.limit} (${limit.kept ? 'holds' : 'exceeded'})</h4>`,
          latencyChart(latencies, limit.figure, limit.limit),
        );
      } else {
        parts.push(
          `<h4>Stated cost: total ${limit.figure} USD against maxCostUsd ${limit.limit} (${limit.kept ? 'holds' : 'exceeded'})</h4>`,
          costChart(limit.figure, limit.limit),
        );
      }
    }
  }
  const failedAt = new Set(
    findings.filter((f) => !f.ok).flatMap((f) => evidenceOf(f, obs, p).map((l) => l.id)),
  );
  parts.push(
    '<h4>Events and the poll pages that read them</h4>',
    timelineChart(
      obs.events.map((e, i) => ({
        type: String(e.type),
        href: ids.event(p, i),
        failed: failedAt.has(ids.event(p, i)),
      })),
      obs.pages.map((page, i) => ({
        label: `poll page ${i + 1}`,
        href: ids.page(p, i),
        eventCount: page.eventCount,
      })),
    ),
  );
  return parts.join('\n');
}
