// Whether two reports can be compared, and over which requirements. A move between two runs is
// only the host's when the suite decided both the same way: a different target kind (the
// embedded reference host against another), strict mode or opt-outs change the rules a row is
// decided by, so `diff` refuses them. A different host address, suite version, selection or
// requirement set is named and worked around: only the requirements both runs ran are compared,
// so a full run against `--only mean-gated` compares one requirement, not a skip for every other.

import type { EvalGateReport } from './report.ts';

export interface DiffScope {
  /** Differences that make a move meaningless: `diff` names them and exits 2. */
  readonly refusals: readonly string[];
  /** Differences `diff` names and works around. */
  readonly warnings: readonly string[];
  /** The requirements both runs ran, in the new report's order. */
  readonly compared: readonly string[];
  /** Requirements either report has that are not compared, in report order. */
  readonly leftOut: readonly string[];
}

type Facts = Pick<
  EvalGateReport,
  'suite' | 'target' | 'strict' | 'optedOut' | 'requirements' | 'selection'
>;

export function diffScope(before: Facts, after: Facts): DiffScope {
  const ranBefore = ranIds(before);
  const ranAfter = new Set(ranIds(after));
  const compared = after.requirements
    .map((r) => r.id)
    .filter((id) => ranBefore.includes(id) && ranAfter.has(id));
  const all = [...new Set([...before.requirements, ...after.requirements].map((r) => r.id))];
  const leftOut = all.filter((id) => !compared.includes(id));
  return {
    refusals: refusalsOf(before, after),
    warnings: warningsOf(before, after, compared, leftOut),
    compared,
    leftOut,
  };
}

function refusalsOf(before: Facts, after: Facts): string[] {
  const out: string[] = [];
  if (before.target.embedded !== after.target.embedded) {
    out.push(
      `the targets differ in kind (OLD ${targetOf(before)}, NEW ${targetOf(after)}): a run of the embedded reference host is no evidence about another host`,
    );
  }
  if (before.strict !== after.strict) {
    out.push(
      `strict mode differs (${onOff(before.strict)} in OLD, ${onOff(after.strict)} in NEW): a gate decides a row differently in each, so a move would be the mode's, not the host's`,
    );
  }
  const optOuts = (r: Facts): string => [...r.optedOut].sort().join(', ') || 'none';
  if (optOuts(before) !== optOuts(after)) {
    out.push(
      `the opt-outs differ (OLD ${optOuts(before)}, NEW ${optOuts(after)}): an opted-out gate decides a row differently, so a move would be the opt-out's, not the host's`,
    );
  }
  return out;
}

function warningsOf(
  before: Facts,
  after: Facts,
  compared: readonly string[],
  leftOut: readonly string[],
): string[] {
  const out: string[] = [];
  if (!before.target.embedded && before.target.baseUrl !== after.target.baseUrl) {
    out.push(
      `the host addresses differ (OLD ${before.target.baseUrl}, NEW ${after.target.baseUrl}): compared as one host`,
    );
  }
  if (before.suite.version !== after.suite.version) {
    out.push(
      `the suite versions differ (OLD ${before.suite.version}, NEW ${after.suite.version}): a fixture or rule may have changed between them`,
    );
  }
  const setBefore = requirementSetOf(before);
  const setAfter = requirementSetOf(after);
  if (setBefore !== setAfter) {
    out.push(
      `the requirement sets differ (OLD ${setBefore ?? 'not recorded'}, NEW ${setAfter ?? 'not recorded'})`,
    );
  }
  if ((isPartial(before) || isPartial(after)) && chosen(before) !== chosen(after)) {
    out.push(`the selections differ (OLD ${chosen(before)}, NEW ${chosen(after)})`);
  }
  if (leftOut.length > 0) {
    out.push(
      `only the ${compared.length} requirement${compared.length === 1 ? '' : 's'} both runs ran ${compared.length === 1 ? 'is' : 'are'} compared; ${leftOut.length} left out: ${leftOut.map(shortId).join(', ')}`,
    );
  }
  return out;
}

/** The requirements a report ran: its rows, less those its selection or requirement set left out. */
function ranIds(report: Facts): string[] {
  const selected = report.selection?.selected;
  const inSet = requirementSetIds(report);
  return report.requirements
    .map((r) => r.id)
    .filter((id) => selected === undefined || selected.includes(id))
    .filter((id) => inSet === undefined || inSet.includes(id));
}

function isPartial(report: Facts): boolean {
  const selected = report.selection?.selected;
  return selected !== undefined && selected.length < report.requirements.length;
}

/** `all 16`, or `mean-gated, suite-gated by --only/--skip`. */
function chosen(report: Facts): string {
  if (!isPartial(report)) return `all ${report.requirements.length}`;
  const selected = report.selection?.selected ?? [];
  return `${selected.map(shortId).join(', ')} by --only/--skip`;
}

/**
 * The requirement set a report records it ran (`requirementSet`: a version string, or an object
 * with a `version` and optionally the `requirements` it holds); reports without one are read as
 * having run the suite's current set, so its absence is tolerated.
 */
export function requirementSetOf(report: object): string | undefined {
  const recorded: unknown = (report as { readonly requirementSet?: unknown }).requirementSet;
  if (typeof recorded === 'string') return recorded;
  const version = memberOf(recorded, 'version');
  return typeof version === 'string' ? version : undefined;
}

function requirementSetIds(report: object): readonly string[] | undefined {
  const recorded: unknown = (report as { readonly requirementSet?: unknown }).requirementSet;
  const ids = memberOf(recorded, 'requirements');
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : undefined;
}

function memberOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)[key]
    : undefined;
}

function targetOf(report: Facts): string {
  return report.target.embedded ? 'the embedded reference host' : report.target.baseUrl;
}

function onOff(strict: boolean): string {
  return strict ? 'on' : 'off';
}

export function shortId(id: string): string {
  return id.replace(/^openwop\.requirement\.0246\./, '');
}
