// The generated pack's decision made case by case, as the cases finish in pack order: counts, the
// first few case lines a reason quotes, one finding per rule, and each failing MUST rule's smallest
// case. What it keeps does not grow with the pack, so a pack of any size is decided in the memory
// of a small one. A pack recorded inline (reports before the sidecar) keeps every finding, as its
// row did then, so it replays to what it recorded.

import type {
  DecidedCase,
  DecidedCases,
  Disposition,
  Finding,
  Fixture,
  SmallestFailingCase,
  StreamedGeneratedRecord,
} from '../types.ts';
import type { Decision } from './decide.ts';
import { packSelection } from './pack-request.ts';
import { notRunWhy } from './run-budget.ts';

export interface GeneratedCase {
  readonly fixtureId: string;
  readonly seed: number;
  /** The fixture's file name in a pack `openwop-eval-gate fixtures --generate` writes. */
  readonly file: string;
  readonly decision: Decision;
  /** The fixture's canonical digest, recorded by a pack whose generator version is recorded. */
  readonly fixtureDigest?: string;
}

/** How many cases of one disposition a reason quotes before it says how many more there are. */
export const FIRST_FAILURES = 3;

const DISPOSITION_ORDER: readonly Disposition[] = [
  'executed-pass',
  'executed-fail',
  'inapplicable',
  'skipped',
  'blocked',
];

/** How large a generated case is: what a person re-driving it has to read. */
export interface CaseSize {
  readonly tasks: number;
  readonly trials: number;
  readonly calls: number;
}

/** Tasks, trials per task, and every scripted tool call the host makes over all of them. */
export function caseSize(fixture: Fixture): CaseSize {
  const trials = fixture.suite.trials?.count ?? 1;
  let calls = 0;
  for (const task of fixture.suite.tasks) {
    const entries = fixture.script[task.taskId] ?? [];
    for (let t = 0; t < trials; t += 1) {
      calls += (entries.length === 1 ? entries[0] : entries[t])?.calls.length ?? 0;
    }
  }
  return { tasks: fixture.suite.tasks.length, trials, calls };
}

/** Negative when `a` is the smaller case: fewer tasks, then fewer trials, then fewer calls. */
function bySize(a: CaseSize, b: CaseSize): number {
  return a.tasks - b.tasks || a.trials - b.trials || a.calls - b.calls;
}

/** The command that drives one generated case of a pack alone. */
export function caseCommand(count: number, seed: number, fixtureId: string): string {
  return `openwop-eval-gate run --generate ${count} --seed ${seed} --case ${fixtureId}`;
}

export function caseLine(c: GeneratedCase): string {
  const failed: Finding | undefined = c.decision.findings.find(
    (f) => !f.ok && f.severity === 'MUST',
  );
  const what =
    failed === undefined ? (c.decision.reason ?? '') : `${failed.rule}: ${failed.message}`;
  return `${c.fixtureId} (seed ${c.seed}, ${c.file}): ${what}`;
}

export interface PackTallyOptions {
  readonly count: number;
  readonly seed: number;
  /** `run --case ID`: the one case driven alone, recorded beside the seed and size. */
  readonly case?: string;
  /** The generator version recorded beside the seed and size, when the record names one. */
  readonly generator?: number;
  /** Every case's findings on the row, as an inline record's row holds them. */
  readonly keepEveryFinding: boolean;
}

/** The pack decided incrementally; `add` takes the cases in pack order. */
export class PackTally {
  readonly #options: PackTallyOptions;
  readonly #counts = new Map<Disposition, number>();
  readonly #lines = new Map<Disposition, string[]>();
  readonly #findings: Finding[] = [];
  /** One finding a rule: a failing rule's from its smallest case, else the first seen. */
  readonly #byRule = new Map<string, Finding>();
  readonly #smallest = new Map<string, SmallestFailingCase & { readonly size: CaseSize }>();
  /** The cases a page opens, by place: every failing one of an inline pack (see decidedCases). */
  readonly #opened = new Map<number, DecidedCase>();
  /** The smallest failing case of each rule, with its place, when a page opens it. */
  readonly #openedSmallest = new Map<string, { place: number; opened: DecidedCase }>();
  #assertions = 0;
  #cases = 0;
  /** Cases the pack never started, and why the first of them was not. */
  #notRun = 0;
  #notRunWhy: string | undefined;

  constructor(options: PackTallyOptions) {
    this.#options = options;
  }

  get cases(): number {
    return this.#cases;
  }

  /**
   * `fixture` sizes the case; an inline record's tally, which keeps no smallest, goes without.
   * `place` is where a page finds the case (DecidedCases); without it the case is opened nowhere.
   */
  add(c: GeneratedCase, fixture?: Fixture, place?: number): void {
    const { disposition, findings, assertions } = c.decision;
    this.#cases += 1;
    this.#assertions += assertions;
    this.#counts.set(disposition, (this.#counts.get(disposition) ?? 0) + 1);
    const why = disposition === 'blocked' ? notRunWhy(c.decision.reason) : undefined;
    if (why !== undefined) {
      this.#notRun += 1;
      this.#notRunWhy ??= why;
    }
    const lines = this.#lines.get(disposition) ?? [];
    if (lines.length < FIRST_FAILURES) lines.push(caseLine(c));
    this.#lines.set(disposition, lines);
    const opened = place === undefined || fixture === undefined ? undefined : openedBy(c, fixture);
    if (this.#options.keepEveryFinding || fixture === undefined) {
      this.#findings.push(...findings);
      if (opened !== undefined) this.#opened.set(place as number, opened);
      return;
    }
    const size = caseSize(fixture);
    for (const f of findings) {
      const named = { ...f, message: `${c.fixtureId}: ${f.message}` };
      const held = this.#byRule.get(f.rule);
      if (held === undefined || (held.ok && !f.ok)) this.#byRule.set(f.rule, named);
      if (f.ok || f.severity !== 'MUST') continue;
      // A later case of the same size is not smaller: the first in pack order stays.
      const best = this.#smallest.get(f.rule);
      if (best !== undefined && bySize(size, best.size) >= 0) continue;
      this.#byRule.set(f.rule, named);
      this.#smallest.set(f.rule, {
        rule: f.rule,
        fixtureId: c.fixtureId,
        ...size,
        command: caseCommand(this.#options.count, this.#options.seed, c.fixtureId),
        size,
      });
      if (opened === undefined) this.#openedSmallest.delete(f.rule);
      else this.#openedSmallest.set(f.rule, { place: place as number, opened });
    }
  }

  /**
   * The failing cases a report's page opens, each with the findings this tally's decider gave it,
   * so the page shows decisions and never makes one: every failing case that recorded its
   * observation, for an inline pack (whose page lists every case); the smallest failing case of
   * each rule that recorded its observation, for a streamed one (whose page shows those alone).
   */
  decidedCases(): DecidedCases {
    if (this.#options.keepEveryFinding) return new Map(this.#opened);
    return new Map([...this.#openedSmallest.values()].map((s) => [s.place, s.opened]));
  }

  tally(): Record<Disposition, number> {
    return Object.fromEntries(
      DISPOSITION_ORDER.map((d) => [d, this.#counts.get(d) ?? 0]),
    ) as Record<Disposition, number>;
  }

  /** Each failing MUST rule's smallest case, by rule. */
  smallest(): SmallestFailingCase[] {
    const held = [...this.#smallest.values()];
    // Stryker disable next-line EqualityOperator: the rules are a map's keys, never equal, so `<=` is `<`
    held.sort((a, b) => (a.rule < b.rule ? -1 : 1));
    return held.map(({ size: _size, ...rest }) => rest);
  }

  /** The record a streamed row carries beside its sidecar. */
  record(sidecar: StreamedGeneratedRecord['sidecar']): StreamedGeneratedRecord {
    return {
      ...packSelection(this.#options),
      sidecar,
      tally: this.tally(),
      smallest: this.smallest(),
    };
  }

  /**
   * The requirement's disposition over every case: a failing case fails it, then a blocked one
   * blocks it; it passes when at least one case passed and every other was inapplicable to this
   * host or skipped, and is inapplicable (or skipped) when none could be driven.
   */
  decision(): Decision {
    const findings = this.#options.keepEveryFinding ? this.#findings : [...this.#byRule.values()];
    const assertions = this.#assertions;
    const count = (d: Disposition): number => this.#counts.get(d) ?? 0;
    const summary = (d: Disposition, verb: string): string => {
      const hit = count(d);
      // Stryker disable next-line ArrayDeclaration: a summary is made only of a disposition some case had, so its lines exist
      const lines = this.#lines.get(d) ?? [];
      const more = hit > FIRST_FAILURES ? `; and ${hit - FIRST_FAILURES} more` : '';
      return `${hit} of ${this.#cases} generated fixtures ${verb}: ${lines.join('; ')}${more}`;
    };
    if (this.#cases === 0) {
      return {
        disposition: 'blocked',
        assertions: 0,
        reason: 'the generated pack is empty',
        findings,
      };
    }
    // The cases the pack never started are said once, with why, not case by case.
    const notRun =
      this.#notRunWhy === undefined
        ? ''
        : `${this.#notRunWhy}; ${this.#notRun} of ${this.#cases} generated fixtures not run`;
    if (count('executed-fail') > 0) {
      return {
        disposition: 'executed-fail',
        assertions,
        // Only a failing pack names its smallest cases; an inline pack's tally keeps none.
        reason: `${summary('executed-fail', 'failed')}${this.#smallestText()}${notRun === '' ? '' : `. ${notRun}`}`,
        findings,
      };
    }
    if (notRun !== '') return { disposition: 'blocked', assertions, reason: notRun, findings };
    if (count('blocked') > 0) {
      return {
        disposition: 'blocked',
        assertions,
        reason: summary('blocked', 'were blocked'),
        findings,
      };
    }
    if (count('executed-pass') === 0) {
      const gated = count('inapplicable') > 0 ? 'inapplicable' : 'skipped';
      return { disposition: gated, assertions, reason: summary(gated, `were ${gated}`), findings };
    }
    return { disposition: 'executed-pass', assertions, findings };
  }

  /** Each smallest case once, with every rule it is the smallest for. */
  #smallestText(): string {
    const byCase = new Map<string, { rules: string[]; size: SmallestFailingCase }>();
    for (const s of this.smallest()) {
      const held = byCase.get(s.fixtureId);
      if (held === undefined) byCase.set(s.fixtureId, { rules: [s.rule], size: s });
      else held.rules.push(s.rule);
    }
    if (byCase.size === 0) return '';
    const each = [...byCase.values()].map(
      ({ rules, size: s }) =>
        `${rules.join(', ')}: ${s.fixtureId} (${counted(s.tasks, 'task')}, ${counted(s.trials, 'trial')}, ${counted(s.calls, 'call')}): ${s.command}`,
    );
    return `. Smallest failing case per rule: ${each.join('; ')}`;
  }
}

/** What a page opens of a case: a failing one that recorded the run it judged, else nothing. */
function openedBy(c: GeneratedCase, fixture: Fixture): DecidedCase | undefined {
  const { decision } = c;
  if (decision.disposition !== 'executed-fail' || decision.observation === undefined) {
    return undefined;
  }
  return { fixture, findings: decision.findings };
}

function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
