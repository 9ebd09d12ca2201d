// The server-free leg: every finding holds on the shipped EvalSummary schema, and each way of
// loosening the schema's bounds makes exactly the findings that guard that bound fail.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import evalSummarySchema from '../../schemas/v2/eval-summary.schema.json' with { type: 'json' };
import idsSchema from '../../schemas/v2/ids.schema.json' with { type: 'json' };
import type { SchemaError } from '../../lib/schemas.ts';
import { judgeGatedFieldsShape, judgeGatedFieldsShapeWith } from '../../lib/witness/shape-leg.ts';
import type { SummaryValidator } from '../../lib/witness/shape-leg.ts';

type Doc = Record<string, unknown>;

/** Compiles an edited copy of the shipped summary schema, outside the suite's own Ajv. */
function loosened(
  edit: (schema: { properties: Doc; $defs: { task: { properties: Doc } } }) => void,
): SummaryValidator {
  const copy = structuredClone(evalSummarySchema);
  edit(copy as unknown as Parameters<typeof edit>[0]);
  // A throwaway instance: not strict, since an edit may leave a bound without its type.
  // The summary names its identifier grammars by reference into the published ids schema.
  const fn = new Ajv2020({ strict: false, allErrors: true }).addSchema(idsSchema).compile({
    ...copy,
    $id: 'urn:test:loosened',
  });
  return (instance): readonly SchemaError[] =>
    fn(instance)
      ? []
      : (fn.errors ?? []).map((e) => ({
          schema: 'eval-summary',
          instancePath: e.instancePath,
          keyword: e.keyword,
          message: e.message ?? '',
        }));
}

function failing(check: SummaryValidator): string[] {
  return judgeGatedFieldsShapeWith(check)
    .filter((f) => !f.ok)
    .map((f) => f.rule)
    .sort();
}

const BOUNDED = { type: 'number', minimum: 0, maximum: 1 };

describe('gated-fields-shape', () => {
  it('every finding holds on the shipped schema, each a MUST citing RFC 0246 §D', () => {
    const findings = judgeGatedFieldsShape();
    expect(findings).toHaveLength(15);
    expect(new Set(findings.map((f) => f.rule)).size).toBe(15);
    for (const f of findings)
      expect(f).toMatchObject({ ok: true, severity: 'MUST', ref: 'RFC 0246 §D' });
    expect(findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining([
        'shape.base-summary.valid',
        'shape.gated-score.accepts-0.5',
        'shape.gated-score.rejects-null',
        'shape.gated-aggregate.rejects-1.01',
        'shape.gated-aggregate.rejects-minus-0.01',
        'shape.gated-aggregate.rejects-string-0.5',
      ]),
    );
  });

  it('the unedited copy of the schema passes, so each edit below is the only defect', () => {
    expect(failing(loosened(() => {}))).toEqual([]);
  });

  it('a gatedAggregateScore without its maximum fails only rejects-1.01', () => {
    const check = loosened(
      (s) => (s.properties.gatedAggregateScore = { type: 'number', minimum: 0 }),
    );
    expect(failing(check)).toEqual(['shape.gated-aggregate.rejects-1.01']);
  });

  it('a gatedScore without its minimum fails only rejects-minus-0.01', () => {
    const check = loosened(
      (s) => (s.$defs.task.properties.gatedScore = { type: 'number', maximum: 1 }),
    );
    expect(failing(check)).toEqual(['shape.gated-score.rejects-minus-0.01']);
  });

  it('a gatedScore without its type lets a string and null through', () => {
    const check = loosened(
      (s) => (s.$defs.task.properties.gatedScore = { minimum: 0, maximum: 1 }),
    );
    expect(failing(check)).toEqual([
      'shape.gated-score.rejects-null',
      'shape.gated-score.rejects-string-0.5',
    ]);
  });

  it('a schema without gatedAggregateScore fails the base, every accept and every aggregate bound', () => {
    // The unknown key is rejected at the root, not at the field, so no bound of the field held.
    const check = loosened((s) => delete s.properties.gatedAggregateScore);
    expect(failing(check)).toEqual([
      'shape.base-summary.valid',
      'shape.gated-aggregate.accepts-0',
      'shape.gated-aggregate.accepts-0.5',
      'shape.gated-aggregate.accepts-1',
      'shape.gated-aggregate.rejects-1.01',
      'shape.gated-aggregate.rejects-minus-0.01',
      'shape.gated-aggregate.rejects-null',
      'shape.gated-aggregate.rejects-string-0.5',
      'shape.gated-score.accepts-0',
      'shape.gated-score.accepts-0.5',
      'shape.gated-score.accepts-1',
    ]);
  });

  it('a rejection at some other place does not count as rejecting the field', () => {
    // Rejects every summary, but never at the gated fields themselves.
    const check: SummaryValidator = () => [
      { schema: 'eval-summary', instancePath: '/suiteId', keyword: 'pattern', message: 'x' },
    ];
    const failed = failing(check);
    expect(failed).toHaveLength(15);
    const message = judgeGatedFieldsShapeWith(check).find(
      (f) => f.rule === 'shape.gated-score.rejects-1.01',
    )?.message;
    expect(message).toBe(
      'tasks[].gatedScore = 1.01 MUST be rejected (only numbers in 0–1 are allowed); ' +
        'the schema raised no error at /tasks/1/gatedScore',
    );
  });

  it('the bounded shape the edits start from is the one the schema ships', () => {
    expect(evalSummarySchema.$defs.unitScore).toMatchObject(BOUNDED);
    expect(evalSummarySchema.properties.gatedAggregateScore.$ref).toBe('#/$defs/unitScore');
    expect(evalSummarySchema.$defs.task.properties.gatedScore.$ref).toBe('#/$defs/unitScore');
  });
});
