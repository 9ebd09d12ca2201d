// The server-free gated-fields-shape leg's words: what each finding says on the shipped schema,
// and what it says against validators that accept everything or reject everything, so the value,
// the member and the schema's answer named in each message are pinned.

import { describe, expect, it } from 'vitest';
import type { SchemaError } from '../../lib/schemas.ts';
import { judgeGatedFieldsShape, judgeGatedFieldsShapeWith } from '../../lib/witness/shape-leg.ts';

const said = (findings: readonly { rule: string; ok: boolean; message: string }[]) =>
  findings.map((f) => [f.rule, f.ok, f.message]);

/** Rejects every summary, with one error at the given path. */
const rejectingAt =
  (instancePath: string, keyword = 'maximum') =>
  (): readonly SchemaError[] => [
    { schema: 'eval-summary', instancePath, keyword, message: 'must be <= 1' },
  ];

describe('gated-fields-shape words', () => {
  it('on the shipped schema names each value accepted or rejected and the keyword that rejected it', () => {
    expect(said(judgeGatedFieldsShape())).toEqual([
      [
        'shape.base-summary.valid',
        true,
        'a summary carrying gatedScore and gatedAggregateScore validates',
      ],
      [
        'shape.gated-score.accepts-0',
        true,
        'tasks[].gatedScore = 0 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-score.accepts-0.5',
        true,
        'tasks[].gatedScore = 0.5 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-score.accepts-1',
        true,
        'tasks[].gatedScore = 1 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-score.rejects-minus-0.01',
        true,
        'tasks[].gatedScore = -0.01 is rejected (minimum)',
      ],
      ['shape.gated-score.rejects-1.01', true, 'tasks[].gatedScore = 1.01 is rejected (maximum)'],
      [
        'shape.gated-score.rejects-string-0.5',
        true,
        'tasks[].gatedScore = "0.5" is rejected (type)',
      ],
      ['shape.gated-score.rejects-null', true, 'tasks[].gatedScore = null is rejected (type)'],
      [
        'shape.gated-aggregate.accepts-0',
        true,
        'gatedAggregateScore = 0 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-aggregate.accepts-0.5',
        true,
        'gatedAggregateScore = 0.5 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-aggregate.accepts-1',
        true,
        'gatedAggregateScore = 1 is accepted, as a number in 0–1 must be',
      ],
      [
        'shape.gated-aggregate.rejects-minus-0.01',
        true,
        'gatedAggregateScore = -0.01 is rejected (minimum)',
      ],
      [
        'shape.gated-aggregate.rejects-1.01',
        true,
        'gatedAggregateScore = 1.01 is rejected (maximum)',
      ],
      [
        'shape.gated-aggregate.rejects-string-0.5',
        true,
        'gatedAggregateScore = "0.5" is rejected (type)',
      ],
      ['shape.gated-aggregate.rejects-null', true, 'gatedAggregateScore = null is rejected (type)'],
    ]);
  });

  it('against a schema that accepts anything, fails exactly the rejections, naming the path it searched', () => {
    const findings = judgeGatedFieldsShapeWith(() => []);
    expect(findings.filter((f) => !f.ok).map((f) => f.rule)).toEqual([
      'shape.gated-score.rejects-minus-0.01',
      'shape.gated-score.rejects-1.01',
      'shape.gated-score.rejects-string-0.5',
      'shape.gated-score.rejects-null',
      'shape.gated-aggregate.rejects-minus-0.01',
      'shape.gated-aggregate.rejects-1.01',
      'shape.gated-aggregate.rejects-string-0.5',
      'shape.gated-aggregate.rejects-null',
    ]);
    expect(findings.find((f) => f.rule === 'shape.gated-score.rejects-null')?.message).toBe(
      'tasks[].gatedScore = null MUST be rejected (only numbers in 0–1 are allowed); the schema raised no error at /tasks/1/gatedScore',
    );
    expect(findings.find((f) => f.rule === 'shape.gated-aggregate.rejects-1.01')?.message).toBe(
      'gatedAggregateScore = 1.01 MUST be rejected (only numbers in 0–1 are allowed); the schema raised no error at /gatedAggregateScore',
    );
    for (const f of findings) expect(f).toMatchObject({ severity: 'MUST', ref: 'RFC 0246 §D' });
  });

  it('against a schema that rejects everything at one field, fails the base and every acceptance, and counts only errors at the field', () => {
    const findings = judgeGatedFieldsShapeWith(rejectingAt('/gatedAggregateScore'));
    expect(findings.filter((f) => !f.ok).map((f) => f.rule)).toEqual([
      'shape.base-summary.valid',
      'shape.gated-score.accepts-0',
      'shape.gated-score.accepts-0.5',
      'shape.gated-score.accepts-1',
      'shape.gated-score.rejects-minus-0.01',
      'shape.gated-score.rejects-1.01',
      'shape.gated-score.rejects-string-0.5',
      'shape.gated-score.rejects-null',
      'shape.gated-aggregate.accepts-0',
      'shape.gated-aggregate.accepts-0.5',
      'shape.gated-aggregate.accepts-1',
    ]);
    expect(findings[0]?.message).toBe(
      'a summary carrying gatedScore and gatedAggregateScore MUST validate; the schema said:\n' +
        'eval-summary#/gatedAggregateScore maximum: must be <= 1',
    );
    expect(findings.find((f) => f.rule === 'shape.gated-score.accepts-0.5')?.message).toBe(
      'tasks[].gatedScore = 0.5 MUST be accepted (a number in 0–1); the schema rejected it:\n' +
        'eval-summary#/gatedAggregateScore maximum: must be <= 1',
    );
  });

  it('names every keyword that rejected a value at the field', () => {
    const twice = (): readonly SchemaError[] => [
      {
        schema: 'eval-summary',
        instancePath: '/gatedAggregateScore',
        keyword: 'maximum',
        message: 'm',
      },
      {
        schema: 'eval-summary',
        instancePath: '/gatedAggregateScore',
        keyword: 'type',
        message: 't',
      },
    ];
    const found = judgeGatedFieldsShapeWith(twice).find(
      (f) => f.rule === 'shape.gated-aggregate.rejects-null',
    );
    expect(found?.message).toBe('gatedAggregateScore = null is rejected (maximum, type)');
  });

  it('passes each field the value it names, in a summary otherwise valid', () => {
    const seen: unknown[] = [];
    judgeGatedFieldsShapeWith((instance) => {
      seen.push(instance);
      return [];
    });
    const base = seen[0] as { tasks: { gatedScore: unknown }[]; gatedAggregateScore: unknown };
    expect([base.gatedAggregateScore, base.tasks.map((t) => t.gatedScore)]).toEqual([0.5, [1, 0]]);
    const asTask = seen.slice(1, 8).map((s) => (s as typeof base).tasks[1]?.gatedScore);
    const asAggregate = seen.slice(8).map((s) => (s as typeof base).gatedAggregateScore);
    expect(asTask).toEqual([0, 0.5, 1, -0.01, 1.01, '0.5', null]);
    expect(asAggregate).toEqual([0, 0.5, 1, -0.01, 1.01, '0.5', null]);
    expect(seen.slice(1, 8).map((s) => (s as typeof base).tasks[0]?.gatedScore)).toEqual(
      Array.from({ length: 7 }, () => 1),
    );
  });
});
