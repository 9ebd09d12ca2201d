// The tables in the docs that restate `LEGS` (lib/legs.ts): rendered from it, written between
// marker comments by `npm run docs:generate`, and compared with a fresh rendering by
// tests/docs/generated-tables.test.ts. A leg added to `LEGS` appears in every table with no edit
// to a document.

import { format, resolveConfig } from 'prettier';

import { LEGS, REQUIREMENT_PREFIX, type FixtureNeeds, type LegDefinition } from '../../lib/legs.ts';
import { cell } from '../../lib/report/render/markdown-ci.ts';
import {
  DEFAULT_INPUT_LIMITS,
  INPUT_LIMIT_FLAGS,
  INPUT_LIMIT_WORDS,
  type InputLimits,
} from '../../lib/bounded-input.ts';
import { ROOT, readRepoFile } from './markdown.ts';

export const REGENERATE_TABLES = 'npm run docs:generate';

type Render = (legs: readonly LegDefinition[]) => string;

/** Each generated table, by document and by the name its markers carry. */
export const GENERATED: Readonly<Record<string, Readonly<Record<string, Render>>>> = {
  'docs/architecture.md': { legs: legsTable },
  'README.md': { requirements: requirementsTable },
  'docs/host-guide.md': { 'discovery-example': discoveryExample },
  'docs/ci.md': { 'halfway-output': halfwayOutput, 'migrated-output': migratedOutput },
  'docs/bounds.md': { 'input-limits': inputLimitsTable },
};

export function beginMarker(name: string): string {
  return `<!-- begin generated "${name}" (${REGENERATE_TABLES}; edit lib/legs.ts, not this block) -->`;
}

export function endMarker(name: string): string {
  return `<!-- end generated "${name}" -->`;
}

/**
 * docs/architecture.md: every leg with its fixture, what that fixture needs of the advertised
 * limits, its capability gates and what it cites.
 */
export function legsTable(legs: readonly LegDefinition[]): string {
  return [
    '| requirement | fixture | needs | gates | cites |',
    '| --- | --- | --- | --- | --- |',
    ...legs.map(
      (l) =>
        `| \`${l.id}\` | ${l.fixtureId === undefined ? 'none (server-free)' : `\`${l.fixtureId}\``} | ` +
        `${needsCell(l.needs)} | ${codeList(l.gates)} | ${cell(l.ref)} |`,
    ),
  ].join('\n');
}

function needsCell(needs: FixtureNeeds | undefined): string {
  if (needs === undefined) return '-';
  const parts = [
    `${needs.taskCount} ${needs.taskCount === 1 ? 'task' : 'tasks'}`,
    `${needs.trialCount} ${needs.trialCount === 1 ? 'trial' : 'trials'}`,
  ];
  if (needs.passRule !== undefined) parts.push(`pass rule \`${needs.passRule}\``);
  if (needs.matchModes.length > 0) parts.push(`match ${codeList(needs.matchModes)}`);
  return parts.join(', ');
}

function codeList(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.map((i) => `\`${i}\``).join(', ');
}

/** README.md: every requirement by the part of its id after the prefix, with its title. */
export function requirementsTable(legs: readonly LegDefinition[]): string {
  return [
    `| requirement (\`${REQUIREMENT_PREFIX}*\`) | what a passing host shows |`,
    '| --- | --- |',
    ...legs.map((l) => {
      const short = l.id.startsWith(REQUIREMENT_PREFIX)
        ? l.id.slice(REQUIREMENT_PREFIX.length)
        : l.id;
      const where = l.fixtureId === undefined ? ' (server-free)' : '';
      return `| \`${short}\`${where} | ${cell(l.title)} |`;
    }),
  ].join('\n');
}

/**
 * docs/host-guide.md: a discovery document that advertises every capability and lists every
 * leg's fixture, as a JSON block a host can start from (marked for tests/docs/json-blocks.test.ts).
 */
export function discoveryExample(legs: readonly LegDefinition[]): string {
  const document = {
    protocolVersions: ['1.11', '2.0'],
    preferredVersion: '1.11',
    implementation: { name: 'acme-host', version: '3.2.0' },
    agents: {
      status: 'stable',
      since: '2.0',
      witness: 'witnessable-gated',
      evalSuite: {
        modes: ['golden'],
        maxTasksPerSuite: 200,
        trajectory: { matchModes: ['exact', 'in-order', 'any-order'] },
        trials: { maxCount: 10, passRules: ['all', 'any', 'mean'] },
      },
    },
    fixtures: legs.flatMap((l) => (l.fixtureId === undefined ? [] : [l.fixtureId])),
  };
  return ['<!-- validates as: discovery -->', '```json', jsonText(document, ''), '```'].join('\n');
}

/** JSON as a person writes it: an object or list of plain values that fits on a line stays on one. */
function jsonText(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const list = Array.isArray(value);
  const entries: [string, unknown][] = list
    ? value.map((v): [string, unknown] => ['', v])
    : Object.entries(value as Record<string, unknown>);
  const item = ([key, v]: [string, unknown], at: string): string =>
    `${list ? '' : `${JSON.stringify(key)}: `}${jsonText(v, at)}`;
  const primitive = (v: unknown): boolean => v === null || typeof v !== 'object';
  const flat = entries.every(([, v]) => primitive(v) || (Array.isArray(v) && v.every(primitive)));
  const body = entries.map((e) => item(e, '')).join(', ');
  const line = list ? `[${body}]` : `{ ${body} }`;
  if (flat && indent.length + line.length <= 80) return line;
  const inner = `${indent}  `;
  const lines = entries.map((e) => `${inner}${item(e, inner)}`).join(',\n');
  return `${list ? '[' : '{'}\n${lines}\n${indent}${list ? ']' : '}'}`;
}

/**
 * `text` with the table between the markers named `name` replaced by `table`. Throws when the
 * markers are missing, repeated or out of order, so a table cannot silently stop being generated.
 */
export function fillTable(text: string, name: string, table: string): string {
  const begin = beginMarker(name);
  const end = endMarker(name);
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) {
    throw new Error(`no markers for the generated block "${name}": add ${begin} and ${end}`);
  }
  if (text.indexOf(begin, from + 1) >= 0 || text.indexOf(end, to + 1) >= 0 || to < from) {
    throw new Error(`the markers of the generated block "${name}" are repeated or out of order`);
  }
  return `${text.slice(0, from)}${begin}\n\n${table}\n\n${text.slice(to)}`;
}

/** A document as `npm run docs:generate` writes it: every table filled, then formatted by prettier. */
export async function regenerated(
  path: string,
  legs: readonly LegDefinition[] = LEGS,
): Promise<string> {
  const tables = GENERATED[path];
  if (tables === undefined) throw new Error(`${path} holds no generated table`);
  let text = readRepoFile(path);
  for (const [name, render] of Object.entries(tables)) text = fillTable(text, name, render(legs));
  const options = (await resolveConfig(`${ROOT}${path}`)) ?? {};
  return format(text, { ...options, parser: 'markdown' });
}

/** The three legs docs/ci.md's worked example leaves failing, excused by its baseline. */
const EXCUSED_LINES = [
  'executed-fail openwop.requirement.0246.cost-limit-kept: 1 MUST finding failed: suite.passed (RFC 0246 §B): suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated cost 0.06 > maxCostUsd 0.05: the maxCostUsd condition decides it); host reported true',
  'executed-fail openwop.requirement.0246.latency-limit-kept: 1 MUST finding failed: suite.passed (RFC 0246 §B): suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated p95 latency 3000 > maxP95LatencyMs 2000: the maxP95LatencyMs condition decides it); host reported true',
  'executed-fail openwop.requirement.0246.cost-limit-over-trials: 1 MUST finding failed: suite.passed (RFC 0246 §B): suite passed MUST be false (gatedAggregateScore 1 ≥ passScore 0.6, stated cost 0.12 > maxCostUsd 0.1: the maxCostUsd condition decides it); host reported true',
];

/**
 * docs/ci.md: the worked example's first run, strict, so it drives the requirement set's pack as
 * one more requirement; three legs and the pack fail and are excused. Its counts are the legs'.
 */
export function halfwayOutput(legs: readonly LegDefinition[]): string {
  const n = legs.length + 1;
  return [
    '```text',
    ...EXCUSED_LINES,
    `PASS; ${n - 4} passed, 4 failed, 0 blocked, 0 skipped; baseline: 4 failing requirements excused (4 rules), 0 stale; not certified: 4 of ${n} failed, baseline, not signed`,
    '```',
  ].join('\n');
}

/** docs/ci.md: the worked example's second run, every requirement passing and each entry stale. */
export function migratedOutput(legs: readonly LegDefinition[]): string {
  return [
    '```text',
    'stale baseline entry: openwop.requirement.0246.cost-limit-kept now holds; remove it from eval-gate/expected-failures.yml',
    'stale baseline entry: openwop.requirement.0246.latency-limit-kept now holds; remove it from eval-gate/expected-failures.yml',
    'stale baseline entry: openwop.requirement.0246.cost-limit-over-trials now holds; remove it from eval-gate/expected-failures.yml',
    'stale baseline entry: openwop.requirement.0246.generated suite.passed now holds; remove it from eval-gate/expected-failures.yml',
    `FAIL: 4 stale baseline entries, first cost-limit-kept: remove it from eval-gate/expected-failures.yml; ${legs.length + 1} passed, 0 failed, 0 blocked, 0 skipped; baseline: 0 failing requirements excused (0 rules), 4 stale; not certified: stale baseline, baseline, not signed`,
    '```',
  ].join('\n');
}

/** docs/bounds.md: each limit on a file a command reads, its default and the flag that raises it. */
export function inputLimitsTable(): string {
  return [
    '| limit | default | flag |',
    '| --- | --- | --- |',
    ...(Object.keys(INPUT_LIMIT_FLAGS) as (keyof InputLimits)[]).map(
      (limit) =>
        `| ${cell(INPUT_LIMIT_WORDS[limit])} | ${DEFAULT_INPUT_LIMITS[limit]} | \`${INPUT_LIMIT_FLAGS[limit]} N\` |`,
    ),
  ].join('\n');
}
