// Which recorded evidence a finding was judged on, as links into the page: the eval.scored events
// of the trial it names, the summary member of the task or suite it names, the poll pages of a
// cursor rule. The witness's findings carry a rule and a message; the rule says what kind of
// evidence it reads, and the message names the task and trial (`task "t1"`, `trial 2`).

import type { Finding, ObservedEvent, RunObservation } from '../../../types.ts';
import { anchorId } from './escape.ts';

export interface EvidenceLink {
  readonly id: string;
  readonly label: string;
}

/** The fragment ids of one recorded observation, under the prefix of its row or case. */
export const ids = {
  status: (p: string): string => anchorId(p, 'status'),
  created: (p: string): string => anchorId(p, 'created'),
  wire: (p: string): string => anchorId(p, 'wire'),
  page: (p: string, i: number): string => anchorId(p, 'page', i),
  event: (p: string, i: number): string => anchorId(p, 'event', i),
  replay: (p: string, i: number): string => anchorId(p, 'replay', i),
  summary: (p: string, path: readonly (string | number)[] = []): string =>
    anchorId(p, 'summary', ...path),
  trial: (p: string, task: number, trial: number): string => anchorId(p, 'trajectory', task, trial),
};

const MAX_LINKS = 6;

/** Summary members a task rule reads, under the task's entry. */
const TASK_MEMBER: Readonly<Record<string, readonly string[]>> = {
  'task.score-unchanged': ['score'],
  'task.mean-score': ['trials', 'meanScore'],
  'task.trial-stats': ['trials', 'trialStats'],
  'task.gated-score-present': [],
  'task.gated-score-value': ['gatedScore'],
  'task.gated-score-absent': ['gatedScore'],
  'task.passed': ['passed'],
};

/** Summary members a suite rule reads. */
const SUITE_MEMBER: Readonly<Record<string, string>> = {
  'suite.aggregate-unchanged': 'aggregateScore',
  'suite.gated-aggregate-present': 'gatedAggregateScore',
  'suite.gated-aggregate-absent': 'gatedAggregateScore',
  'suite.gated-aggregate-value': 'gatedAggregateScore',
  'suite.passed': 'passed',
  'suite.counts': 'passedCount',
};

/** Event types an events rule reads. */
const EVENT_TYPES: Readonly<Record<string, readonly string[]>> = {
  'events.completed-once': ['eval.completed'],
  'events.run-completed': ['run.completed'],
  'events.scored-count': ['eval.scored'],
  'events.payload-schema': ['eval.started', 'eval.scored', 'eval.completed'],
  'events.started-consistent': ['eval.started'],
  'events.started-trials': ['eval.started'],
  'completed.consistent': ['eval.completed'],
};

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

function taskIndex(summary: unknown, taskId: string | undefined): number {
  const tasks = record(summary)?.tasks;
  if (!Array.isArray(tasks) || taskId === undefined) return -1;
  return tasks.findIndex((t) => record(t)?.taskId === taskId);
}

/** The path under the summary that exists, longest first: a missing member links to its parent. */
function existing(summary: unknown, path: readonly (string | number)[]): (string | number)[] {
  const kept: (string | number)[] = [];
  let at: unknown = summary;
  for (const part of path) {
    const next = Array.isArray(at) ? at[Number(part)] : record(at)?.[String(part)];
    if (next === undefined) break;
    kept.push(part);
    at = next;
  }
  return kept;
}

function eventsWhere(
  events: readonly ObservedEvent[],
  keep: (e: ObservedEvent) => boolean,
  p: string,
): EvidenceLink[] {
  return events.flatMap((e, i) =>
    keep(e) ? [{ id: ids.event(p, i), label: `event ${i} (${String(e.type)})` }] : [],
  );
}

/** The evidence a finding was judged on, as fragment links under prefix `p`. */
export function evidenceOf(finding: Finding, obs: RunObservation, p: string): EvidenceLink[] {
  const taskId = /task "([^"]*)"/.exec(finding.message)?.[1];
  const trialText = /\btrial (\d+)/.exec(finding.message)?.[1];
  const trial = trialText === undefined ? undefined : Number(trialText);
  const rule = finding.rule;
  const summaryLink = (path: readonly (string | number)[]): EvidenceLink => {
    const kept = existing(obs.summary, path);
    return {
      id: ids.summary(p, kept),
      label: kept.length === 0 ? 'the summary' : `summary ${kept.join('.')}`,
    };
  };
  let links: EvidenceLink[];
  if (rule.startsWith('trial.')) {
    const scored = (e: ObservedEvent): boolean => {
      const payload = record(e.payload);
      return (
        e.type === 'eval.scored' &&
        (taskId === undefined || payload?.taskId === taskId) &&
        (trial === undefined || payload?.trial === trial)
      );
    };
    links = eventsWhere(obs.events, scored, p);
  } else if (rule.startsWith('task.')) {
    const t = taskIndex(obs.summary, taskId);
    links = [summaryLink(t === -1 ? ['tasks'] : ['tasks', t, ...(TASK_MEMBER[rule] ?? [])])];
  } else if (
    rule.startsWith('suite.') ||
    rule === 'limits.figures' ||
    rule.startsWith('summary.')
  ) {
    const member = SUITE_MEMBER[rule];
    links = [summaryLink(member === undefined ? [] : [member])];
  } else if (EVENT_TYPES[rule] !== undefined) {
    const types = new Set(EVENT_TYPES[rule]);
    links = eventsWhere(obs.events, (e) => types.has(String(e.type)), p);
  } else if (
    rule === 'events.cursor' ||
    rule === 'events.last-sequence' ||
    rule === 'wire.poll-page'
  ) {
    links = obs.pages.map((_, i) => ({ id: ids.page(p, i), label: `poll page ${i + 1}` }));
    if (rule === 'events.cursor') {
      links.push(
        ...(obs.replays ?? []).map((r, i) => ({
          id: ids.replay(p, i),
          label: `replay from ${r.cursor}`,
        })),
      );
    }
  } else if (rule === 'run.completed-status') {
    links = [{ id: ids.status(p), label: 'the run status' }];
  } else if (rule === 'wire.create-answer') {
    links = [{ id: ids.created(p), label: 'the create answer' }];
  } else if (rule === 'wire.error-body' || rule === 'wire.version-header') {
    links = [{ id: ids.wire(p), label: 'the wire record' }];
  } else {
    // The envelope, order and first-event rules read the whole log; its first event stands for it.
    links = obs.events.length === 0 ? [] : [{ id: ids.event(p, 0), label: 'event 0' }];
    if (
      rule === 'events.sequence-ascending' ||
      rule === 'events.envelope' ||
      rule === 'wire.event-envelope'
    ) {
      links = obs.events.map((e, i) => ({
        id: ids.event(p, i),
        label: `event ${i} (${String(e.type)})`,
      }));
    }
  }
  if (links.length === 0 && obs.events.length > 0) {
    links = [{ id: ids.event(p, 0), label: 'event 0' }];
  }
  return links.slice(0, MAX_LINKS);
}
