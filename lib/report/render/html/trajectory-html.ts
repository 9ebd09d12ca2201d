// Each trial's expected trajectory beside the calls it made, one aligned row per call, marked
// where they part. The calls are the fixture script's (the report keeps no call arguments); each
// links to the agent.tool-called event the host emitted for it, counted within the trial.

import type { RunObservation, ToolCall } from '../../../types.ts';
import { num } from '../../expect.ts';
import { esc, tag } from './escape.ts';
import { ids } from './evidence.ts';
import type { AlignedStep, FixtureTrials, StepMark } from './trajectory.ts';

const MARK_TEXT: Readonly<Record<StepMark, { text: string; bad: boolean }>> = {
  match: { text: 'matches', bad: false },
  args: { text: 'argument mismatch', bad: true },
  missing: { text: 'missing', bad: true },
  extra: { text: 'not expected', bad: false },
  forbidden: { text: 'forbidden', bad: true },
  miss: { text: 'miss: no recorded response', bad: true },
};

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

function callText(call: ToolCall | undefined): string {
  if (call === undefined) return '<span class="muted">—</span>';
  const args =
    call.args === undefined ? '' : ` <span class="muted">${esc(JSON.stringify(call.args))}</span>`;
  return `<code>${esc(call.tool)}</code>${args}`;
}

/** The events of one trial: those after the previous eval.scored, up to this trial's own. */
function trialEvents(obs: RunObservation, taskId: string, trial: number): number[] {
  let start = 0;
  for (let i = 0; i < obs.events.length; i += 1) {
    const e = obs.events[i];
    if (e?.type !== 'eval.scored') continue;
    const payload = record(e.payload);
    if (payload?.taskId === taskId && payload.trial === trial) {
      return obs.events
        .slice(start, i)
        .flatMap((x, k) => (x.type === 'agent.tool-called' ? [start + k] : []));
    }
    start = i + 1;
  }
  return [];
}

function stepRow(step: AlignedStep, toolEvents: readonly number[], p: string): string {
  const marks = step.marks
    .map(
      (m) =>
        `<span class="mark ${MARK_TEXT[m].bad ? 'bad' : 'good'}">${esc(MARK_TEXT[m].text)}</span>`,
    )
    .join('');
  const event = step.observedIndex === undefined ? undefined : toolEvents[step.observedIndex];
  const link =
    event === undefined ? '' : ` <a href="#${esc(ids.event(p, event))}">event ${event}</a>`;
  const bad = step.marks.some((m) => MARK_TEXT[m].bad);
  return tag(
    'tr',
    { class: bad ? 'disagrees' : 'agrees' },
    `<td>${callText(step.expected)}</td><td>${callText(step.observed)}${link}</td><td>${marks}</td>`,
  );
}

export function trajectorySection(trials: FixtureTrials, obs: RunObservation, p: string): string {
  const blocks = trials.tasks.flatMap((task, t) =>
    task.trials.map((trial) => {
      const scored = obs.events.find((e) => {
        const payload = record(e.payload);
        return (
          e.type === 'eval.scored' &&
          payload?.taskId === task.taskId &&
          payload.trial === trial.trial
        );
      });
      const reported = record(scored?.payload)?.trajectoryMatched;
      const verdict =
        trial.trajectoryMatched === null
          ? 'no trajectory declared'
          : trial.trajectoryMatched
            ? 'trajectory matched'
            : 'trajectory failed';
      const head =
        `<strong>${esc(task.taskId)}</strong>, trial ${trial.trial}: witness says ${verdict}` +
        `${trial.failedClosed ? ', failed closed' : ''}; score ${num(trial.score)}, gating score ${num(trial.gatingScore)}; ` +
        `host reported trajectoryMatched <code>${esc(reported === undefined ? 'absent' : JSON.stringify(reported))}</code>` +
        `${task.mode === null ? '' : `; match mode ${esc(task.mode)}`}${task.forbidden.length === 0 ? '' : `; forbidden: ${task.forbidden.map((f) => `<code>${esc(f)}</code>`).join(', ')}`}`;
      const events = trialEvents(obs, task.taskId, trial.trial);
      const rows = trial.steps.map((s) => stepRow(s, events, p)).join('');
      return tag(
        'div',
        { id: ids.trial(p, t, trial.trial), class: 'trajectory' },
        `<p>${head}</p><table><thead><tr><th>expected call</th><th>call made</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
      );
    }),
  );
  return `<h4>Trajectories, trial by trial</h4><p class="muted">Calls made: the fixture's script for the trial, linked to the host's agent.tool-called events.</p>${blocks.join('\n')}`;
}
