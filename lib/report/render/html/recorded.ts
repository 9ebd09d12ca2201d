// The recorded evidence of one observation, as the report holds it: the run status, the create
// answer, the poll pages, every event, the replays and the summary member by member, each with a
// fragment id a finding links to. Everything here is host text, so every value goes through esc.

import type { ObservedEvent, RunObservation } from '../../../types.ts';
import { esc, shown, tag } from './escape.ts';
import { ids } from './evidence.ts';

/** Beyond this many members a summary is shown as JSON text: a page stays a readable size. */
const MAX_MEMBERS = 400;
const MAX_DEPTH = 6;

export function recordedEvidence(obs: RunObservation, p: string): string {
  return [
    '<div class="evidence">',
    tag(
      'p',
      { id: ids.status(p) },
      `Run status once the log ended: <code>${esc(shown(obs.runStatus))}</code>`,
    ),
    tag('p', { id: ids.created(p) }, `Create answer: <code>${esc(shown(obs.created, 300))}</code>`),
    pagesTable(obs, p),
    eventsTable(obs.events, p),
    replaysList(obs, p),
    wireRecord(obs, p),
    '<h5>Summary</h5>',
    tag('div', { id: ids.summary(p), class: 'summary-tree' }, memberTree(obs.summary, p)),
    '</div>',
  ].join('\n');
}

function pagesTable(obs: RunObservation, p: string): string {
  const rows = obs.pages.map((page, i) =>
    tag(
      'tr',
      { id: ids.page(p, i) },
      `<td>${i + 1}</td><td>${esc(shown(page.afterSequence))}</td><td>${esc(shown(page.lastSequence))}</td>` +
        `<td>${esc(shown(page.isTerminal))}</td><td>${page.eventCount}</td>`,
    ),
  );
  return [
    '<h5>Poll pages</h5>',
    '<table class="pages"><thead><tr><th>page</th><th>afterSequence</th><th>lastSequence</th><th>isTerminal</th><th>events</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

function eventTime(e: ObservedEvent): unknown {
  return e.envelope?.members?.timestamp;
}

function eventsTable(events: readonly ObservedEvent[], p: string): string {
  const rows = events.map((e, i) =>
    tag(
      'tr',
      { id: ids.event(p, i) },
      `<td>${i}</td><td>${esc(shown(e.sequence))}</td><td><code>${esc(shown(e.type))}</code></td>` +
        `<td>${esc(shown(eventTime(e)))}</td><td><code>${e.payload === undefined ? '' : esc(shown(e.payload, 400))}</code></td>`,
    ),
  );
  return [
    '<h5>Events, in the order read</h5>',
    '<table class="events"><thead><tr><th>#</th><th>sequence</th><th>type</th><th>timestamp</th><th>payload</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

function replaysList(obs: RunObservation, p: string): string {
  const replays = obs.replays ?? [];
  if (replays.length === 0) return '';
  const items = replays.map((r, i) =>
    tag(
      'li',
      { id: ids.replay(p, i) },
      `from ${esc(r.cursor)} (afterSequence ${r.afterSequence}): ${r.pages.length} page(s), ` +
        `${r.events.length} event(s)${r.refusal === undefined ? '' : `, refused: ${esc(r.refusal)}`}`,
    ),
  );
  return `<h5>Replays of the finished log</h5><ul>${items.join('')}</ul>`;
}

function wireRecord(obs: RunObservation, p: string): string {
  return tag(
    'p',
    { id: ids.wire(p) },
    `Wire record: errors <code>${esc(shown(obs.errors, 300))}</code>; versions <code>${esc(shown(obs.versions, 300))}</code>`,
  );
}

/** The summary as nested lists, every member with the id a finding links to. */
function memberTree(summary: unknown, p: string): string {
  let budget = MAX_MEMBERS;
  const walk = (value: unknown, path: readonly (string | number)[], depth: number): string => {
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH || budget <= 0) {
      return `<code>${esc(shown(value, 200))}</code>`;
    }
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value as Record<string, unknown>);
    const items = entries.map(([key, v]) => {
      budget -= 1;
      const at = [...path, key];
      return tag(
        'li',
        { id: ids.summary(p, at) },
        `<span class="key">${esc(key)}</span>: ${walk(v, at, depth + 1)}`,
      );
    });
    return `<ul>${items.join('')}</ul>`;
  };
  return walk(summary, [], 0);
}
