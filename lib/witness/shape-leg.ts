// The server-free leg openwop.requirement.0246.gated-fields-shape: the shipped EvalSummary schema
// accepts gatedScore and gatedAggregateScore in 0–1 and rejects anything else (RFC 0246 §D). It
// needs no host, so it judges the schema itself with literal summaries.

import { formatSchemaErrors, validate } from '../schemas.ts';
import type { SchemaError } from '../schemas.ts';
import type { EvalSummary, Finding } from '../types.ts';

/** Validates an EvalSummary; an empty list means valid. Injected so a test can loosen it. */
export type SummaryValidator = (instance: unknown) => readonly SchemaError[];

const REF = 'RFC 0246 §D';

/** A summary that is valid as written and carries both gated fields. */
const BASE: EvalSummary = {
  suiteId: 'conformance.evals.trajectory-gate',
  suiteVersion: '1.0.0',
  aggregateScore: 1,
  gatedAggregateScore: 0.5,
  // Stryker disable next-line BooleanLiteral: the schema does not tie passed to the scores, so BASE validates either way
  passed: false,
  taskCount: 2,
  passedCount: 1,
  tasks: [
    // Stryker disable next-line BooleanLiteral: as above
    { taskId: 'matches-trajectory', score: 1, gatedScore: 1, passed: true },
    // Stryker disable next-line BooleanLiteral: as above
    { taskId: 'wrong-path', score: 1, gatedScore: 0, passed: false },
  ],
};

interface Field {
  /** Slug used in rule ids. */
  readonly slug: string;
  readonly name: string;
  readonly instancePath: string;
  readonly withValue: (value: unknown) => unknown;
}

const FIELDS: readonly Field[] = [
  {
    slug: 'gated-score',
    name: 'tasks[].gatedScore',
    instancePath: '/tasks/1/gatedScore',
    withValue: (value) => ({
      ...BASE,
      tasks: [BASE.tasks[0], { ...BASE.tasks[1], gatedScore: value }],
    }),
  },
  {
    slug: 'gated-aggregate',
    name: 'gatedAggregateScore',
    instancePath: '/gatedAggregateScore',
    withValue: (value) => ({ ...BASE, gatedAggregateScore: value }),
  },
];

/** Values the schema must accept, and values it must reject, each with its rule-id label. */
const ACCEPTED: readonly (readonly [string, number])[] = [
  ['0', 0],
  ['0.5', 0.5],
  ['1', 1],
];
const REJECTED: readonly (readonly [string, unknown])[] = [
  ['minus-0.01', -0.01],
  ['1.01', 1.01],
  ['string-0.5', '0.5'],
  ['null', null],
];

export function judgeGatedFieldsShape(): readonly Finding[] {
  return judgeGatedFieldsShapeWith((instance) => validate('eval-summary', instance));
}

/** The leg's judgement against any summary validator; the exported leg uses the shipped one. */
export function judgeGatedFieldsShapeWith(check: SummaryValidator): readonly Finding[] {
  const findings: Finding[] = [];
  const baseErrors = check(BASE);
  findings.push({
    rule: 'shape.base-summary.valid',
    ok: baseErrors.length === 0,
    severity: 'MUST',
    ref: REF,
    message:
      baseErrors.length === 0
        ? 'a summary carrying gatedScore and gatedAggregateScore validates'
        : `a summary carrying gatedScore and gatedAggregateScore MUST validate; the schema said:\n` +
          formatSchemaErrors(baseErrors),
  });
  for (const field of FIELDS) {
    for (const [label, value] of ACCEPTED) {
      const errors = check(field.withValue(value));
      findings.push({
        rule: `shape.${field.slug}.accepts-${label}`,
        ok: errors.length === 0,
        severity: 'MUST',
        ref: REF,
        message:
          errors.length === 0
            ? `${field.name} = ${show(value)} is accepted, as a number in 0–1 must be`
            : `${field.name} = ${show(value)} MUST be accepted (a number in 0–1); the schema ` +
              `rejected it:\n${formatSchemaErrors(errors)}`,
      });
    }
    for (const [label, value] of REJECTED) {
      // Only an error at the field itself counts: a rejection elsewhere says nothing about it.
      const atField = check(field.withValue(value)).filter(
        (e) => e.instancePath === field.instancePath,
      );
      findings.push({
        rule: `shape.${field.slug}.rejects-${label}`,
        ok: atField.length > 0,
        severity: 'MUST',
        ref: REF,
        message:
          atField.length > 0
            ? `${field.name} = ${show(value)} is rejected (${atField.map((e) => e.keyword).join(', ')})`
            : `${field.name} = ${show(value)} MUST be rejected (only numbers in 0–1 are allowed); ` +
              `the schema raised no error at ${field.instancePath}`,
      });
    }
  }
  return findings;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
