// Which failed findings only follow from an earlier failure, and the order a reader meets them
// in. The rule catalogue declares, as data, which rules a rule's failure can follow from
// (`follows` in lib/witness/rules.ts); this marks each failed finding whose declared cause also
// failed with the root of that chain, and lists it after every finding that is not such a
// consequence. It reads nothing but the findings, so `verify` recomputes the same marks.

import type { Finding } from '../types.ts';
import { declaredCauses } from './rules.ts';

/**
 * `findings` with every failed consequence marked `consequenceOf` its root cause and moved after
 * the rest; each group keeps its order. Marks already present are recomputed, never trusted.
 */
export function causesFirst(findings: readonly Finding[]): Finding[] {
  const failed = new Set(findings.filter((f) => !f.ok).map((f) => f.rule));
  const marked = findings.map((f): Finding => {
    const plain = withoutMark(f);
    const root = f.ok ? undefined : rootCause(f.rule, failed);
    return root === undefined ? plain : { ...plain, consequenceOf: root };
  });
  return [
    ...marked.filter((f) => f.consequenceOf === undefined),
    ...marked.filter((f) => f.consequenceOf !== undefined),
  ];
}

/**
 * The failed rule at the end of the chain of declared causes of `rule`, or undefined when no
 * declared cause failed. The first failed cause in declared order is followed at each step.
 */
function rootCause(rule: string, failed: ReadonlySet<string>): string | undefined {
  // Stryker disable next-line ArrayDeclaration: the rule itself is seen only by a cycle back to it, which the catalogue test forbids
  const seen = new Set([rule]);
  let root: string | undefined;
  for (let at = rule; ;) {
    // Stryker disable next-line ConditionalExpression: `seen` guards only against a cyclic catalogue, which tests/witness/consequences.test.ts forbids
    const cause = declaredCauses(at).find((c) => failed.has(c) && !seen.has(c));
    if (cause === undefined) return root;
    // Stryker disable next-line BlockStatement,ArrowFunction: as above
    seen.add(cause);
    root = cause;
    at = cause;
  }
}

/** The finding as the witness made it, every other member kept. */
function withoutMark(f: Finding): Finding {
  if (f.consequenceOf === undefined) return f;
  return Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'consequenceOf')) as Finding;
}
