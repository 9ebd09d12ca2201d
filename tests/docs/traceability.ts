// What judges each requirement sentence of the host guide, the wire contract and rfc-0246.md
// (tests/docs/requirements.ts finds them by their anchors). A sentence is judged by witness
// rules, by a capability gate, or not judged, with the reason. The reference-host defects that
// break a judged sentence, and the legs or host checks that catch each, are read from the
// matrix's hand-written expected tables (tests/matrix/expected.ts, host-checks-expected.ts), not
// from a run, so docs/traceability.md says what the matrix holds the suite to.

import { format, resolveConfig } from 'prettier';
import { ROOT, readRepoFile } from './markdown.ts';
import {
  requirementSentences,
  TRACED_DOCS,
  type Sentence,
  type TracedDoc,
} from './requirements.ts';
import { RULES, type RuleId } from '../../lib/eval-gate-witness.ts';
import { EXPECTED, LEG_SLUGS, type RowName } from '../matrix/expected.ts';
import { HOST_CHECK_FAILURES } from '../matrix/host-checks-expected.ts';

export type Trace =
  | { readonly kind: 'rules'; readonly rules: readonly RuleId[] }
  | { readonly kind: 'gate'; readonly defect: RowName; readonly gate: string }
  | { readonly kind: 'not-judged'; readonly because: string };

const rules = (...ids: RuleId[]): Trace => ({ kind: 'rules', rules: ids });
const gate = (defect: RowName, name: string): Trace => ({ kind: 'gate', defect, gate: name });
const notJudged = (because: string): Trace => ({ kind: 'not-judged', because });
/** A sentence about the suite itself: what it sends, reads or reports, which no host can break. */
const suite = (what: string): Trace => notJudged(`it says ${what}, not what a host serves`);

export const TRACE: Readonly<Record<string, Trace>> = {
  'hg-1': suite("the guide's purpose"),
  'hg-2': suite('how to read the upgrade notes'),
  'hg-3': gate('withhold-fixtures', 'the fixture gate'),
  'hg-4': rules('auth.no-bypass'),
  'hg-5': rules('events.last-sequence'),
  'hg-6': notJudged(
    'it is a duty of a client reading the log, which the suite is, not of the host',
  ),
  'hg-7': rules('events.run-completed'),
  'hg-8': rules('wire.wrong-key-refused', 'wire.error-body'),
  'hg-9': rules('wire.unadvertised-operation-not-found'),
  'hg-10': rules('task.gated-score-absent', 'suite.passed'),
  'hg-11': rules('limits.figures'),
  'hg-12': suite('how host checks count'),
  'hg-13': gate('protocol-v1-only', 'the major-2 gate'),
  'hg-14': notJudged(
    'the golden-mode gate fails every leg of a host without golden in agents.evalSuite.modes, and no reference-host defect withholds the mode alone',
  ),
  'hg-15': rules('limits.figures'),
  'hg-16': notJudged(
    'it is advice on configuring the RFC 0023 mock agent; the run it prevents, one that never ends, is blocked, never a verdict',
  ),
  'hg-17': rules('wire.version-header'),
  'hg-18': rules('events.cursor'),
  'hg-19': rules('events.cursor'),
  'hg-20': rules('wire.error-body'),
  'hg-21': suite('why the refusals are provoked'),
  'hg-22': rules('wire.wrong-key-refused', 'auth.no-bypass'),
  'hg-23': rules('auth.no-bypass'),
  'hg-24': suite('how a probe that was not answered is reported'),
  'hg-25': suite('how host-check findings count'),
  'hg-26': rules('wire.discovery'),
  'hg-27': rules('events.run-completed'),
  'hg-28': rules('events.last-sequence'),
  'hg-29': rules('task.gated-score-value'),
  'hg-30': rules('task.gated-score-value'),
  'hg-31': suite('how the reading fixtures are built'),
  'hg-32': suite('how MUST and SHOULD findings count'),
  'hg-33': rules('summary.schema', 'events.payload-schema'),
  'hg-34': rules('task.gated-score-absent'),
  'hg-35': rules('task.gated-score-absent'),
  'hg-36': rules('events.scored-count'),
  'hg-37': suite('how the suite builds its routes'),
  'hg-38': rules('run.completed-status'),
  'hg-39': suite('how the suite treats the API key'),
  'hg-40': suite('how wire findings are reported'),
  'hg-41': suite('what the console prints'),
  'hg-42': rules('wire.event-envelope', 'events.sequence-ascending'),
  'hg-43': rules('trial.flags'),
  'hg-44': rules('events.started-trials'),
  'hg-45': rules('wire.summary-task-order'),
  'hg-46': rules('events.started-trials'),
  'hg-47': rules('wire.summary-task-order'),
  'hg-48': rules('trial.flags'),
  'hg-49': rules('wire.wrong-key-refused', 'auth.no-bypass'),
  'hg-50': rules('events.payload-schema'),
  'hg-51': rules('trial.score-unchanged', 'trial.passed', 'events.scored-count'),
  'hg-52': rules('summary.schema', 'events.payload-schema'),
  'hg-53': rules('events.envelope', 'events.sequence-ascending', 'wire.event-envelope'),
  'hg-54': rules('wire.discovery'),
  'wc-1': suite("the contract's purpose"),
  'wc-2': notJudged(
    'the suite calls only the unversioned paths, so a host that serves them elsewhere is never driven: its legs fail on run.served or are blocked, and no rule names the path',
  ),
  'wc-3': notJudged('the suite provokes no rate limit, so it never sees retry timing'),
  'wc-4': rules('wire.version-header'),
  'wc-5': notJudged(
    'the varied reference host mints tenant-qualified run ids, so every varied run drives the %2F form, but no reference-host defect refuses it, so no rule is shown failing on it',
  ),
  'wc-6': rules('auth.no-bypass', 'wire.unknown-run-not-found', 'wire.unknown-suite-refused'),
  'wc-7': suite('how host checks count'),
  'wc-8': suite('where probes go'),
  'wc-9': notJudged(
    'the golden-mode gate fails every leg of a host without golden in agents.evalSuite.modes, and no reference-host defect withholds the mode alone',
  ),
  'wc-10': suite('how a fault of the suite is reported'),
  'wc-11': rules('wire.discovery'),
  'wc-12': rules('limits.figures', 'suite.passed'),
  'wc-13': suite('how the suite builds its routes'),
  'wc-14': rules('wire.error-body'),
  'wc-15': rules('events.cursor'),
  'wc-16': rules('events.cursor'),
  'wc-17': rules('events.cursor'),
  'wc-18': suite('how a leg is decided'),
  'wc-19': suite('why the unknown-run answer is a SHOULD'),
  'wc-20': rules('events.last-sequence'),
  'wc-21': rules('events.run-completed'),
  'wc-22': suite('what the suite keeps of run.completed'),
  'wc-23': rules('suite.passed', 'limits.figures'),
  'wc-24': rules(
    'summary.schema',
    'events.payload-schema',
    'events.scored-count',
    'content-free',
    'completed.consistent',
    'trial.score-unchanged',
  ),
  'wc-25': suite('what a disposition means'),
  'wc-26': suite('what a disposition means'),
  'wc-27': suite('how an unexercised rule is reported'),
  'wc-28': suite('how limits.figures counts'),
  'wc-29': suite('how a leg is decided'),
  'wc-30': suite('what the run options change'),
  'wc-31': rules('wire.error-body'),
  'wc-32': rules('wire.create-answer', 'wire.poll-page', 'wire.event-envelope'),
  'wc-33': rules('wire.discovery'),
  'wc-34': gate('withhold-eval-suite', 'the agents.evalSuite gate'),
  'wc-35': rules('task.trial-stats'),
  'wc-36': rules('events.last-sequence'),
  'wc-37': rules('events.last-sequence'),
  'wc-38': rules('wire.event-envelope', 'events.sequence-ascending'),
  'wc-39': suite('how the suite judges eval.started.modes'),
  'rfc-1': suite('how MUST and SHOULD findings count'),
  'rfc-2': rules('trial.score-unchanged', 'task.score-unchanged', 'suite.aggregate-unchanged'),
  'rfc-3': rules(
    'trial.score-unchanged',
    'task.score-unchanged',
    'task.mean-score',
    'suite.aggregate-unchanged',
  ),
  'rfc-4': rules(
    'run.completed-status',
    'events.envelope',
    'events.sequence-ascending',
    'events.cursor',
    'summary.identity',
  ),
  'rfc-5': suite('why the wire rules are SHOULD'),
  'rfc-6': rules(
    'wire.discovery',
    'auth.no-bypass',
    'wire.unauthenticated-refused',
    'wire.wrong-key-refused',
    'wire.unknown-run-not-found',
    'wire.unknown-suite-refused',
    'wire.unadvertised-operation-not-found',
  ),
  'rfc-7': suite('how host checks count'),
  'rfc-8': suite('what a disposition means'),
  'rfc-9': rules('task.passed'),
  'rfc-10': rules('suite.passed', 'completed.consistent'),
  'rfc-11': rules('limits.figures'),
  'rfc-12': rules('task.score-unchanged', 'task.mean-score', 'suite.aggregate-unchanged'),
  'rfc-13': rules('task.gated-score-present'),
  'rfc-14': rules('suite.gated-aggregate-present'),
};

/** One defect of the matrix that breaks a rule, and where the matrix expects it caught. */
export interface Catch {
  readonly defect: RowName;
  /** Leg slugs, or `host checks` for a rule judged once per run. */
  readonly where: readonly string[];
}

/** Every row of the matrix that expects `rule` to fail or warn, with the legs it is expected in. */
export function catchesOf(rule: string): Catch[] {
  const out: Catch[] = [];
  for (const [defect, row] of Object.entries(EXPECTED) as [RowName, (typeof EXPECTED)[RowName]][]) {
    const legs = LEG_SLUGS.filter((slug) => {
      const cell = row[slug];
      return [...(cell.rules ?? []), ...(cell.warnings ?? [])].includes(rule as never);
    });
    const host = (HOST_CHECK_FAILURES[defect] ?? []).includes(rule as never) ? ['host checks'] : [];
    if (legs.length + host.length > 0) out.push({ defect, where: [...legs, ...host] });
  }
  return out;
}

/** The legs a gate defect fails before any run: every leg whose expected reason names a gate. */
export function gateCatches(defect: RowName): string[] {
  const row = EXPECTED[defect];
  return LEG_SLUGS.filter(
    (slug) => row[slug].disposition === 'executed-fail' && row[slug].rules === undefined,
  );
}

export function tracedSentences(): Sentence[] {
  return (Object.keys(TRACED_DOCS) as TracedDoc[]).flatMap((doc) =>
    requirementSentences(doc, readRepoFile(doc)),
  );
}

const KNOWN_RULES: ReadonlySet<string> = new Set(RULES.map((r) => r.id));
export const isKnownRule = (id: string): boolean => KNOWN_RULES.has(id);

/** Text safe in a Markdown table cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

const MAX_SHOWN = 4;
function catchText(catches: readonly Catch[]): string {
  if (catches.length === 0) return '';
  const shown = catches.slice(0, MAX_SHOWN).map(
    (c) =>
      `\`${c.defect}\` (${c.where
        .slice(0, 3)
        .map((w) => `\`${w}\``)
        .join(', ')}${c.where.length > 3 ? ', …' : ''})`,
  );
  const more = catches.length > MAX_SHOWN ? `; and ${catches.length - MAX_SHOWN} more` : '';
  return shown.join('; ') + more;
}

/** docs/traceability.md, whole. */
export function traceabilityDoc(): string {
  const lines: string[] = [
    '# Traceability: every requirement sentence, and what breaks it',
    '',
    '<!-- Generated by `npm run docs:generate` from tests/docs/traceability.ts in the repository; do not edit. -->',
    '',
    'Each sentence of [host-guide.md](host-guide.md), [wire-contract.md](wire-contract.md) and',
    '[rfc-0246.md](rfc-0246.md) that says what a host must, should or must never do, and each',
    'sentence of their normative sections whose subject is a wire member and whose verb is is, are,',
    'carries or carry (`passed` is a JSON boolean everywhere), carries an id',
    '(an empty anchor at its start, so `host-guide.md#hg-4` links to it). This table maps each id to',
    'the witness rules that judge it, the reference-host defects that break it and the legs or host',
    'checks the defect matrix expects to catch each ([falsifiability.md](falsifiability.md)); or to',
    'the gate that decides it; or says why it is not judged. In the repository,',
    '`tests/docs/traceability.test.ts` fails on a requirement sentence without an id, an id without a row here, and a row whose defect the',
    "matrix's expected table does not catch. A judged sentence with no defect is listed at the end.",
    '',
    '| id | sentence | judged by | broken by (caught in) |',
    '| --- | --- | --- | --- |',
  ];
  const gaps: string[] = [];
  for (const s of tracedSentences()) {
    const id = s.id ?? '';
    const trace = TRACE[id];
    const link = `[${id}](${s.doc.slice('docs/'.length)}#${id})`;
    const bare = s.text.replace(/^(\|\s*|[-*]\s+)/, '');
    const text = cell(bare.length > 160 ? `${bare.slice(0, 157)}…` : bare);
    if (trace === undefined) {
      lines.push(`| ${link} | ${text} | untraced | |`);
      continue;
    }
    if (trace.kind === 'not-judged') {
      lines.push(`| ${link} | ${text} | not judged, because ${cell(trace.because)} | |`);
      continue;
    }
    if (trace.kind === 'gate') {
      const legs = gateCatches(trace.defect);
      lines.push(
        `| ${link} | ${text} | ${trace.gate} | \`${trace.defect}\` (${legs.length} legs fail the gate) |`,
      );
      continue;
    }
    const catches = trace.rules.flatMap(catchesOf);
    const seen = new Map<string, Catch>();
    for (const c of catches) if (!seen.has(c.defect)) seen.set(c.defect, c);
    const unique = [...seen.values()];
    const judged = trace.rules.map((r) => `\`${r}\``).join(', ');
    lines.push(`| ${link} | ${text} | ${judged} | ${cell(catchText(unique)) || 'no defect yet'} |`);
    if (unique.length === 0)
      gaps.push(`- [${id}](${s.doc.slice('docs/'.length)}#${id}): ${judged}`);
  }
  lines.push('', '## Judged, with no reference-host defect that breaks it', '');
  lines.push(
    ...(gaps.length === 0
      ? ['Every judged sentence has a defect the matrix catches.']
      : [
          'These sentences are judged by their rules, each shown failing in the witness tests in the repository',
          '(`tests/witness/`), but no reference-host defect of the matrix breaks them yet:',
          '',
          ...gaps,
        ]),
  );
  return `${lines.join('\n')}\n`;
}

/** docs/traceability.md as `npm run docs:generate` writes it: generated, then formatted by prettier. */
export async function formattedTraceability(): Promise<string> {
  const path = `${ROOT}docs/traceability.md`;
  const options = (await resolveConfig(path)) ?? {};
  return format(traceabilityDoc(), { ...options, parser: 'markdown' });
}
