// The shipped JSON Schemas: each compiles strictly, follows the v2 conventions (closed objects
// with the vendor escape hatch, a description on every property), accepts a known-good instance
// and rejects a known-bad one with the error pinned by keyword and place.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meanGatedSummary } from './support/contract-summaries.ts';
import meanFixture from '../fixtures/conformance-eval-trajectory-gate-mean.json' with { type: 'json' };
import {
  formatSchemaErrors,
  SCHEMA_FILES,
  SCHEMA_NAMES,
  schemaId,
  validate,
} from '../lib/schemas.ts';
import type { SchemaError, SchemaName } from '../lib/schemas.ts';
import { validReport } from './cli/report-example.ts';

type Doc = Record<string, unknown>;

const ROOT = new URL('../', import.meta.url);
const ESCAPE_HATCH = { '^(openwop-|x-|vendor\\.)': true };

function readSchema(name: SchemaName): Doc {
  return JSON.parse(readFileSync(new URL(SCHEMA_FILES[name], ROOT), 'utf8')) as Doc;
}

function sub(doc: Doc, ...keys: string[]): Doc {
  return keys.reduce((d, k) => d[k] as Doc, doc);
}

/** Every sub-object of a schema document, with a JSON-pointer-like path for messages. */
function* nodes(node: unknown, path = ''): Generator<readonly [string, Doc]> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield [path, node as Doc];
  for (const [key, child] of Object.entries(node)) yield* nodes(child, `${path}/${key}`);
}

const summary = (): Doc => meanGatedSummary();

const VALID: Readonly<Record<SchemaName, () => unknown>> = {
  'eval-summary': summary,
  'agent-eval-suite': () => structuredClone(meanFixture.suite),
  event: () => ({
    eventId: 'ev-1',
    runId: 'tenant-a/run-1',
    type: 'eval.scored',
    sequence: 0,
    timestamp: '2026-10-16T09:00:00Z',
    payload: { taskId: 't', score: 1, passed: false },
  }),
  'eval-started': () => ({
    suiteId: 'conformance.evals.trajectory-gate-mean',
    suiteVersion: '1.0.0',
    taskCount: 1,
    modes: ['golden'],
    trials: { count: 2, passRule: 'mean' },
  }),
  'eval-scored': () => ({
    taskId: 't',
    score: 1,
    passed: false,
    trial: 1,
    trajectoryMatched: false,
  }),
  'eval-completed': () => ({ aggregateScore: 1, passed: false, taskCount: 1, passedCount: 0 }),
  'discovery-eval-suite': () => ({
    modes: ['golden'],
    trajectory: { matchModes: ['exact', 'in-order', 'any-order'] },
    trials: { maxCount: 10, passRules: ['all', 'any', 'mean'] },
  }),
  fixture: () => structuredClone(meanFixture),
  'eval-gate-report': validReport,
};

/**
 * One defect per row: the value at `set` (a JSON pointer) becomes `to`, or is removed when `to` is
 * absent, and the schema must report `keyword` at `errorAt` (default: the pointer itself).
 */
interface Defect {
  readonly schema: SchemaName;
  readonly defect: string;
  readonly set: string;
  readonly to?: unknown;
  readonly keyword: string;
  readonly errorAt?: string;
}

const INVALID: readonly Defect[] = [
  {
    schema: 'eval-summary',
    defect: 'a gatedScore above 1',
    set: '/tasks/0/gatedScore',
    to: 1.5,
    keyword: 'maximum',
  },
  {
    schema: 'eval-summary',
    defect: 'a negative gatedAggregateScore',
    set: '/gatedAggregateScore',
    to: -0.5,
    keyword: 'minimum',
  },
  {
    schema: 'eval-summary',
    defect: 'task output in a task entry',
    set: '/tasks/0/output',
    to: 'merged',
    keyword: 'additionalProperties',
    errorAt: '/tasks/0',
  },
  {
    schema: 'eval-summary',
    defect: 'trialStats without failedClosed',
    set: '/tasks/0/trials/trialStats/failedClosed',
    keyword: 'required',
    errorAt: '/tasks/0/trials/trialStats',
  },
  {
    schema: 'agent-eval-suite',
    defect: 'a suiteId without .evals.',
    set: '/suiteId',
    to: 'conformance.gate',
    keyword: 'pattern',
  },
  {
    schema: 'agent-eval-suite',
    defect: 'trials.count 0',
    set: '/trials/count',
    to: 0,
    keyword: 'minimum',
  },
  {
    schema: 'agent-eval-suite',
    defect: 'a forbidden tool without a scope',
    set: '/tasks/0/expected/trajectory/forbidden/0',
    to: 'delete-customer',
    keyword: 'pattern',
  },
  { schema: 'agent-eval-suite', defect: 'no tasks', set: '/tasks', to: [], keyword: 'minItems' },
  {
    schema: 'event',
    defect: 'a timestamp that is not a date-time',
    set: '/timestamp',
    to: 'yesterday',
    keyword: 'format',
  },
  { schema: 'event', defect: 'a negative sequence', set: '/sequence', to: -1, keyword: 'minimum' },
  {
    schema: 'eval-started',
    defect: 'an unknown passRule',
    set: '/trials/passRule',
    to: 'median',
    keyword: 'enum',
  },
  {
    schema: 'eval-scored',
    defect: 'a trial numbered from 0',
    set: '/trial',
    to: 0,
    keyword: 'minimum',
  },
  {
    schema: 'eval-scored',
    defect: 'task output in the payload',
    set: '/output',
    to: 'answer',
    keyword: 'additionalProperties',
    errorAt: '',
  },
  {
    schema: 'eval-completed',
    defect: 'no passed',
    set: '/passed',
    keyword: 'required',
    errorAt: '',
  },
  {
    schema: 'discovery-eval-suite',
    defect: 'trials.maxCount 0',
    set: '/trials/maxCount',
    to: 0,
    keyword: 'minimum',
  },
  {
    schema: 'discovery-eval-suite',
    defect: 'an unknown match mode',
    set: '/trajectory/matchModes/0',
    to: 'fuzzy',
    keyword: 'enum',
  },
  {
    schema: 'fixture',
    defect: 'a requirement outside RFC 0246',
    set: '/requirement',
    to: 'openwop.requirement.0244.x',
    keyword: 'pattern',
  },
  {
    schema: 'fixture',
    defect: 'an empty script list',
    set: '/script/x',
    to: [],
    keyword: 'minItems',
  },
  // Reaches the suite schema through the fixture schema's cross-file $ref.
  {
    schema: 'fixture',
    defect: 'a suite passScore above 1',
    set: '/suite/thresholds/passScore',
    to: 2,
    keyword: 'maximum',
  },
];

/** Sets (or, with no value, removes) the member a JSON pointer names; its parent must exist. */
function applyDefect(doc: unknown, row: Defect): void {
  const keys = row.set.split('/').slice(1);
  const last = keys.pop() ?? '';
  const parent = keys.reduce<unknown>((node, key) => (node as Doc)[key], doc) as Doc;
  if ('to' in row) parent[last] = row.to;
  else delete parent[last];
}

describe('schemas', () => {
  it.each(SCHEMA_NAMES)('%s compiles under strict mode and rejects null', (name) => {
    const errors = validate(name, null);
    expect(errors).toContainEqual(expect.objectContaining({ schema: name, keyword: 'type' }));
  });

  it.each(SCHEMA_NAMES)('%s lives at its listed file with the urn:openwop:v2 $id', (name) => {
    expect(SCHEMA_FILES[name]).toBe(`schemas/v2/${name}.schema.json`);
    expect(readSchema(name).$id).toBe(`urn:openwop:v2:${name}`);
    expect(schemaId(name)).toBe(`urn:openwop:v2:${name}`);
  });

  it.each(SCHEMA_NAMES)('%s closes every object and describes every property', (name) => {
    const problems: string[] = [];
    for (const [path, node] of nodes(readSchema(name))) {
      if (node.type !== 'object' || node.properties === undefined) continue;
      if (node.additionalProperties !== false) problems.push(`${path}: not closed`);
      if (JSON.stringify(node.patternProperties) !== JSON.stringify(ESCAPE_HATCH)) {
        problems.push(`${path}: no vendor escape hatch`);
      }
      for (const [prop, def] of Object.entries(node.properties as Record<string, Doc>)) {
        if (typeof def.description !== 'string') problems.push(`${path}/${prop}: no description`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(SCHEMA_NAMES)('%s accepts its known-good instance', (name) => {
    expect(formatSchemaErrors(validate(name, VALID[name]()))).toBe('');
  });

  it.each(INVALID)('$schema rejects $defect with $keyword', (row) => {
    const doc = VALID[row.schema]();
    applyDefect(doc, row);
    expect(validate(row.schema, doc)).toContainEqual(
      expect.objectContaining({ keyword: row.keyword, instancePath: row.errorAt ?? row.set }),
    );
  });

  it('a vendor key is accepted where an unknown key is rejected', () => {
    expect(validate('eval-summary', { ...summary(), 'x-acme-trace': 'abc' })).toEqual([]);
    expect(validate('eval-summary', { ...summary(), trace: 'abc' })).toContainEqual(
      expect.objectContaining({ keyword: 'additionalProperties', instancePath: '' }),
    );
  });

  it('the descriptions name the gating score where RFC 0246 asks', () => {
    const s = readSchema('eval-summary') as { properties: Record<string, Doc>; $defs: Doc };
    expect(s.properties.passed?.description).toMatch(/gatedAggregateScore/);
    expect(s.properties.gatedAggregateScore?.description).toMatch(/RFC 0246 §A.*RFC 0246 §D/s);
    const taskProps = sub(s.$defs, 'task', 'properties') as Record<string, Doc>;
    expect(taskProps.gatedScore?.description).toMatch(/RFC 0246 §A.*RFC 0246 §D/s);
    const suite = readSchema('agent-eval-suite');
    expect(sub(suite, 'properties', 'trials', 'properties', 'passRule').description).toMatch(
      /`mean`: the task's gating score/,
    );
  });
});

describe('formatSchemaErrors', () => {
  const err = (i: number): SchemaError => ({
    schema: 'event',
    instancePath: `/p${i}`,
    keyword: 'type',
    message: `must be number ${i}`,
  });

  it('prints one line per error up to the cap, then how many were left out', () => {
    expect(formatSchemaErrors([err(1), err(2), err(3), err(4), err(5)], 2)).toBe(
      'event#/p1 type: must be number 1\nevent#/p2 type: must be number 2\n(+3 more)',
    );
  });

  it('prints every error when they fit under the default cap of 3', () => {
    expect(formatSchemaErrors([err(1), err(2), err(3)]).split('\n')).toHaveLength(3);
    expect(formatSchemaErrors([])).toBe('');
  });
});
