// A failing report as literal data, for the HTML renderer's tests: the mean-gated leg against a
// host that zeroes the score of a trajectory-failed trial (the reference host's `score-zeroed`
// defect), with the events, poll page and summary the run records. `hostile` replaces every host
// string with markup, to show the page escapes it.

import type { EvalGateReport, ReportRow } from '../../lib/report/report.ts';
import { totalsOf } from '../../lib/report/report.ts';
import type { ObservedEvent, RunObservation } from '../../lib/types.ts';

const RUN = 'reference/run-000000000001';
const TASK = 'forbidden-in-every-trial';

function event(sequence: number, type: string, payload?: unknown): ObservedEvent {
  return { sequence, type, runId: RUN, ...(payload === undefined ? {} : { payload }) };
}

function trialEvents(start: number, trial: number, task: string): ObservedEvent[] {
  return [
    event(start, 'agent.invocation-started'),
    event(start + 1, 'agent.tool-called'),
    event(start + 2, 'agent.tool-returned'),
    event(start + 3, 'agent.tool-called'),
    event(start + 4, 'agent.tool-returned'),
    event(start + 5, 'agent.tool-called'),
    event(start + 6, 'agent.tool-returned'),
    event(start + 7, 'agent.decided'),
    event(start + 8, 'agent.invocation-completed'),
    event(start + 9, 'eval.scored', {
      taskId: task,
      score: 0,
      passed: false,
      trial,
      trajectoryMatched: false,
      failedClosed: false,
    }),
  ];
}

export function failingObservation(task = TASK, extraType = 'run.completed'): RunObservation {
  const events = [
    event(0, 'eval.started', { suiteId: 'conformance.evals.trajectory-gate-mean', taskCount: 1 }),
    ...trialEvents(1, 1, task),
    ...trialEvents(11, 2, task),
    event(21, 'eval.completed', { aggregateScore: 0, passed: false, taskCount: 1, passedCount: 0 }),
    event(22, extraType),
  ];
  return {
    runId: RUN,
    evalSuiteRef: 'conformance.evals.trajectory-gate-mean',
    agentId: 'core.conformance.eval-scripted-agent',
    pages: [{ afterSequence: null, lastSequence: 22, isTerminal: true, eventCount: 23 }],
    events,
    runStatus: 'completed',
    summary: {
      suiteId: 'conformance.evals.trajectory-gate-mean',
      aggregateScore: 0,
      gatedAggregateScore: 0,
      passed: false,
      taskCount: 1,
      passedCount: 0,
      tasks: [
        {
          taskId: task,
          score: 0,
          gatedScore: 0,
          passed: false,
          trials: { count: 2, passRule: 'mean', meanScore: 0 },
        },
      ],
    },
  };
}

export function failingRow(task = TASK, extraType?: string): ReportRow {
  return {
    id: 'openwop.requirement.0246.mean-gated',
    disposition: 'executed-fail',
    assertions: 3,
    durationMs: 12,
    reason: '2 MUST findings failed',
    fixtureId: 'conformance-eval-trajectory-gate-mean',
    findings: [
      {
        rule: 'task.score-unchanged',
        ok: false,
        severity: 'MUST',
        ref: 'RFC 0246 §C',
        message: `task "${task}": score MUST be 1 (mean of the 2 trial output scores); host reported 0`,
      },
      {
        rule: 'trial.score-unchanged',
        ok: false,
        severity: 'MUST',
        ref: 'RFC 0246 §C',
        message: `task "${task}": eval.scored.score MUST stay the output score; trial 1 MUST be 1, host reported score 0`,
      },
      {
        rule: 'events.completed-once',
        ok: true,
        severity: 'MUST',
        ref: 'contract §7',
        message: 'eval.completed appears exactly once',
      },
    ],
    observation: failingObservation(task, extraType),
  };
}

const PASSING: ReportRow = {
  id: 'openwop.requirement.0246.gated-fields-shape',
  disposition: 'executed-pass',
  assertions: 1,
  durationMs: 3,
  findings: [
    {
      rule: 'shape.base-summary.valid',
      ok: true,
      severity: 'MUST',
      ref: 'RFC 0246 §D',
      message: 'a summary carrying gatedScore and gatedAggregateScore validates',
    },
  ],
};

export function failingReport(
  options: { baseUrl?: string; task?: string; extraType?: string } = {},
): EvalGateReport {
  const rows = [PASSING, failingRow(options.task, options.extraType)];
  return {
    reportVersion: 1,
    suite: { name: 'openwop-eval-gate-conformance', version: '0.1.0' },
    target: { baseUrl: options.baseUrl ?? 'http://127.0.0.1:8080', embedded: false },
    strict: true,
    optedOut: ['agents.evalSuite.trials'],
    startedAt: '2026-10-16T09:00:00Z',
    finishedAt: '2026-10-16T09:00:01Z',
    discovery: { ok: true, text: '{"implementation":{"name":"acme"}}' },
    requirements: rows,
    totals: totalsOf(rows),
    digests: {
      algorithm: 'sha256',
      discovery: null,
      fixtures: {},
      schemas: {},
      rows: 'ab'.repeat(32),
    },
  };
}

/** Markup a hostile host puts wherever it writes text. */
export const HOSTILE = `"><img src=x onerror=alert(1)><script>alert('x')</script>`;
