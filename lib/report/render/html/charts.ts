// The pictures: inline SVG, drawn from numbers the report or the fixture holds, each with a
// <title> and a caption in words so a reader without the picture loses nothing. Labels that a
// host supplies are escaped; coordinates are numbers the page computes.

import { num } from '../../expect.ts';
import { esc } from './escape.ts';

export interface TrialBar {
  readonly label: string;
  /** The score the host reported in eval.scored; undefined when it reported none. */
  readonly reported: number | undefined;
  /** The score and the gating score the witness expects (RFC 0246 §A). */
  readonly score: number;
  readonly gating: number;
  /** A fragment the bar links to: the trial's event or trajectory. */
  readonly href?: string;
}

const W = 560;

function svg(height: number, title: string, body: string): string {
  return (
    `<svg class="chart" role="img" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" ` +
    `xmlns="http://www.w3.org/2000/svg"><title>${esc(title)}</title>${body}</svg>`
  );
}

/**
 * A label cut in its middle to fit left of the bars, so both a task's start and a trial's number
 * stay; the whole label is in the bar's title.
 */
const short = (label: string, max = 22): string =>
  label.length > max ? `${label.slice(0, max - 9)}…${label.slice(-8)}` : label;

const clamp01 = (v: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const fixed = (v: number): string => String(Math.round(v * 10) / 10);

/** A task's decisive figure: the mean of its trials' gating scores, which RFC 0246 §A compares to passScore. */
export interface MeanBar {
  readonly label: string;
  readonly mean: number;
}

/** A score bar on the 0-1 scale with its value beside it; a 0 is a thin bar, not a missing one. */
function scoreBar(
  value: number,
  x0: number,
  y: number,
  span: number,
  cls: string,
  note = '',
): string {
  const width = Math.max(clamp01(value) * span, 2);
  return (
    `<rect x="${x0}" y="${y}" width="${fixed(width)}" height="7" class="${cls}"/>` +
    `<text x="${fixed(x0 + width + 3)}" y="${y + 7}" class="value">${esc(num(value) + note)}</text>`
  );
}

/** The 0-1 axis under the bars, a tick and a label every quarter. */
function scoreAxis(x0: number, span: number, y: number): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => {
    const x = fixed(x0 + t * span);
    return (
      `<line x1="${x}" y1="${y}" x2="${x}" y2="${y + 4}" class="axis"/>` +
      `<text x="${x}" y="${y + 14}" text-anchor="middle" class="tick-label">${t}</text>`
    );
  });
  return `<line x1="${x0}" y1="${y}" x2="${x0 + span}" y2="${y}" class="axis"/>${ticks.join('')}`;
}

/**
 * Per trial: the reported score, the expected score and the expected gating score; per task, the
 * mean of its gating scores, the figure that decides it, against the passScore line.
 */
export function trialScoreChart(
  bars: readonly TrialBar[],
  passScore: number,
  means: readonly MeanBar[] = [],
): string {
  const rowH = 28;
  const meanH = 16;
  const left = 150;
  const span = W - left - 50;
  const top = 8;
  const axisY = top + bars.length * rowH + means.length * meanH + 4;
  const height = axisY + 34;
  const parts = bars.map((b, i) => {
    const y = top + i * rowH;
    const reported =
      b.reported === undefined
        ? `<text x="${left + 2}" y="${y + 6}" class="absent">absent</text>`
        : scoreBar(b.reported, left, y, span, 'reported');
    const body =
      `<text x="4" y="${y + 14}">${esc(short(b.label))}</text>` +
      reported +
      scoreBar(b.score, left, y + 8, span, 'score') +
      scoreBar(b.gating, left, y + 16, span, 'gating') +
      `<title>${esc(`${b.label}: reported ${b.reported === undefined ? 'absent' : num(b.reported)}, expected score ${num(b.score)}, gating score ${num(b.gating)}`)}</title>`;
    return b.href === undefined ? `<g>${body}</g>` : `<a href="#${esc(b.href)}">${body}</a>`;
  });
  const meanRows = means.map((m, i) => {
    const y = top + bars.length * rowH + i * meanH;
    const verdict = m.mean >= passScore ? 'clears' : 'below';
    const note = ` ${m.mean >= passScore ? '≥' : '<'} ${num(passScore)}`;
    return (
      `<g><text x="4" y="${y + 8}" class="mean-label">${esc(short(m.label, 20))}</text>` +
      scoreBar(m.mean, left, y, span, 'mean', note) +
      `<title>${esc(`${m.label}: mean gating score ${num(m.mean)}, ${verdict} passScore ${num(passScore)}`)}</title></g>`
    );
  });
  const px = left + clamp01(passScore) * span;
  const line =
    `<line x1="${fixed(px)}" y1="2" x2="${fixed(px)}" y2="${axisY}" class="limit"/>` +
    `<text x="${fixed(px + 3)}" y="${height - 2}" class="limit-label">passScore ${esc(num(passScore))}</text>`;
  return svg(
    height,
    `Each trial: reported score, expected score, expected gating score; each task's mean gating score against passScore ${num(passScore)}`,
    parts.join('') + meanRows.join('') + scoreAxis(left, span, axisY) + line,
  );
}

/** The stated trial latencies as dots, with their p95 and the declared limit drawn. */
export function latencyChart(
  latencies: readonly { readonly label: string; readonly ms: number }[],
  p95: number,
  limit: number,
): string {
  const height = 70;
  const top = Math.max(limit, p95, ...latencies.map((l) => l.ms), 1) * 1.1;
  const x = (ms: number): number => 20 + (ms / top) * (W - 40);
  const dots = latencies
    .map(
      (l, i) =>
        `<circle cx="${fixed(x(l.ms))}" cy="${30 + (i % 3) * 6}" r="4" class="dot"><title>${esc(`${l.label}: ${num(l.ms)} ms`)}</title></circle>`,
    )
    .join('');
  const mark = (ms: number, cls: string, text: string, ty: number): string =>
    `<line x1="${fixed(x(ms))}" y1="8" x2="${fixed(x(ms))}" y2="52" class="${cls}"/>` +
    `<text x="${fixed(x(ms) + 3)}" y="${ty}" class="${cls}-label">${esc(text)}</text>`;
  return svg(
    height,
    `Trial latencies (ms): p95 ${num(p95)}, limit ${num(limit)}`,
    `<line x1="20" y1="52" x2="${W - 20}" y2="52" class="axis"/>${dots}` +
      mark(p95, 'p95', `p95 ${num(p95)} ms`, 64) +
      mark(limit, 'limit', `limit ${num(limit)} ms`, 18),
  );
}

/** The total stated cost as a bar against the declared limit. */
export function costChart(total: number, limit: number): string {
  const height = 50;
  const top = Math.max(total, limit, 1e-9) * 1.15;
  const x = (v: number): number => 20 + (v / top) * (W - 40);
  return svg(
    height,
    `Total cost ${num(total)} USD against the limit ${num(limit)} USD`,
    `<rect x="20" y="12" width="${fixed(x(total) - 20)}" height="16" class="${total > limit ? 'over' : 'reported'}"/>` +
      `<line x1="${fixed(x(limit))}" y1="4" x2="${fixed(x(limit))}" y2="36" class="limit"/>` +
      `<text x="22" y="46">total ${esc(num(total))} USD</text>` +
      `<text x="${fixed(x(limit) + 3)}" y="12" class="limit-label">limit ${esc(num(limit))}</text>`,
  );
}

export interface TimelineEvent {
  readonly type: string;
  readonly href: string;
  readonly failed: boolean;
}

export interface TimelinePage {
  readonly label: string;
  readonly href: string;
  /** How many events the page returned, in read order. */
  readonly eventCount: number;
}

/**
 * The run's events in the order read, one tick each, under the poll pages that returned them:
 * a page spans the events it carried. Events a failing finding links to are drawn as failures.
 */
export function timelineChart(
  events: readonly TimelineEvent[],
  pages: readonly TimelinePage[],
): string {
  const height = 78;
  const n = Math.max(events.length, 1);
  const step = (W - 40) / n;
  const x = (i: number): number => 20 + i * step;
  const ticks = events
    .map(
      (e, i) =>
        `<a href="#${esc(e.href)}"><rect x="${fixed(x(i))}" y="40" width="${fixed(Math.max(step - 1, 1))}" height="18" class="${e.failed ? 'tick failed' : 'tick'}"><title>${esc(`event ${i}: ${e.type}`)}</title></rect></a>`,
    )
    .join('');
  let start = 0;
  const bands = pages
    .map((page, i) => {
      const from = start;
      start += page.eventCount;
      const width = Math.max(page.eventCount * step - 2, 2);
      return `<a href="#${esc(page.href)}"><rect x="${fixed(x(from))}" y="${10 + (i % 2) * 12}" width="${fixed(width)}" height="10" class="page"><title>${esc(`${page.label}: ${page.eventCount} event(s)`)}</title></rect></a>`;
    })
    .join('');
  return svg(
    height,
    `${events.length} events in the order read, under the ${pages.length} poll page(s) that returned them`,
    `${bands}${ticks}<text x="20" y="74">first event read</text><text x="${W - 20}" y="74" text-anchor="end">last</text>`,
  );
}
