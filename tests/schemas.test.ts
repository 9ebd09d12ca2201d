// The shipped JSON Schemas: each validator compiles strictly, carries the `$id` its kind demands
// (published structures their published one, the suite's own documents a urn), describes every
// property, accepts a known-good instance and rejects a known-bad one with the error pinned by
// keyword and place. The upstream corpus (tests/upstream/) checks fidelity to the published files.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meanGatedSummary } from './support/contract-summaries.ts';
import {
  formatSchemaErrors,
  SCHEMA_FILES,
  SCHEMA_NAMES,
  schemaId,
  validate,
} from '../lib/schemas.ts';
import type { SchemaError, SchemaName } from '../lib/schemas.ts';
import { validReport } from './cli/report-example.ts';
import { buildMatrix } from '../lib/report/render/matrix/build.ts';
import { certificationStatement } from '../lib/report/render/statement.ts';
import type { EvalGateReport } from '../lib/report/report.ts';
import { UNRECORDED } from '../lib/report/verdict/run-verdict.ts';
import {
  contractSuite,
  EVENT_ID,
  fixtureOf,
  fullDiscovery,
  fullEvent,
  RUN_ID,
} from './upstream/examples.ts';

type Doc = Record<string, unknown>;

const ROOT = new URL('../', import.meta.url);
const PUBLISHED = 'https://openwop.dev/spec/v2/';

function readFile(path: string): Doc {
  return JSON.parse(readFileSync(new URL(path, ROOT), 'utf8')) as Doc;
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

const VALID: Readonly<Record<SchemaName, () => unknown>> = {
  'agent-eval-suite': contractSuite,
  'eval-summary': meanGatedSummary,
  'eval-started': () => ({
    suiteId: 'core.conformance.evals.trajectory-gate-mean',
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
  'run-event': fullEvent,
  'poll-response': () => ({
    runId: RUN_ID,
    events: [fullEvent()],
    lastSequence: 0,
    status: 'running',
    isTerminal: false,
  }),
  'create-run-answer': () => ({
    runId: RUN_ID,
    status: 'pending',
    eventsUrl: `/runs/${encodeURIComponent(RUN_ID)}/events`,
  }),
  'error-envelope': () => ({ error: 'not_found', message: 'no such suite' }),
  discovery: fullDiscovery,
  'run-id': () => RUN_ID,
  'event-id': () => EVENT_ID,
  'agent-id': () => 'core.conformance.eval-scripted-agent',
  'node-id': () => 'node:1',
  'agent-invocation-started': () => ({ invocationId: 'inv-1', agentId: 'a1', source: 'run-api' }),
  'agent-invocation-completed': () => ({
    invocationId: 'inv-1',
    agentId: 'a1',
    outcome: 'completed',
  }),
  'agent-tool-called': () => ({ agentId: 'a1', toolName: 'crm:lookup', callId: 'c1', inputs: {} }),
  'agent-tool-returned': () => ({
    agentId: 'a1',
    toolName: 'crm:lookup',
    callId: 'c1',
    outcome: 1,
  }),
  'agent-decided': () => ({ agentId: 'a1', decision: 'done' }),
  'run-completed': () => ({ outputs: {} }),
  fixture: () => fixtureOf(contractSuite()),
  'eval-gate-report': validReport,
  'eval-gate-statement': () => {
    const report = validReport() as unknown as EvalGateReport;
    return certificationStatement(
      report,
      JSON.stringify(report),
      report.certification ?? UNRECORDED,
    );
  },
  matrix: () =>
    buildMatrix([
      {
        verification: { state: 'verified', report: validReport(), problems: [] },
        file: './a.json',
      },
    ]),
};

/**
 * The RFC 0244/0246 additions (contract §5), which the upstream corpus cannot speak for. One defect
 * per row: the value at `set` (a JSON pointer) becomes `to`, or is removed when `to` is
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
    schema: 'eval-gate-statement',
    defect: 'a subject digest that is not a sha256',
    set: '/subject/0/digest/sha256',
    to: 'sha256:abc',
    keyword: 'pattern',
  },
  {
    schema: 'eval-gate-statement',
    defect: 'a certification without its signer',
    set: '/predicate/certification/signer',
    keyword: 'required',
    errorAt: '/predicate/certification',
  },
  {
    schema: 'matrix',
    defect: 'a cell showing a verdict no verification stands behind',
    set: '/rows/0/cells/0/state',
    to: 'claimed-pass',
    keyword: 'enum',
  },
  {
    schema: 'eval-gate-report',
    defect: 'a probe answered without its status',
    set: '/hostChecks/probes/0',
    to: { probe: 'no-credentials', outcome: 'answered', request: 'POST /runs', body: { json: {} } },
    keyword: 'oneOf',
  },
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
    defect: 'trialStats without failedClosed',
    set: '/tasks/0/trials/trialStats/failedClosed',
    keyword: 'required',
    errorAt: '/tasks/0/trials/trialStats',
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
    defect: 'an unknown trajectory match mode',
    set: '/tasks/0/expected/trajectory/match',
    to: 'fuzzy',
    keyword: 'enum',
  },
  {
    schema: 'discovery',
    defect: 'trials.maxCount 0',
    set: '/agents/evalSuite/trials/maxCount',
    to: 0,
    keyword: 'minimum',
  },
  {
    schema: 'discovery',
    defect: 'an unknown match mode',
    set: '/agents/evalSuite/trajectory/matchModes/0',
    to: 'fuzzy',
    keyword: 'enum',
  },
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
    schema: 'agent-eval-suite',
    defect: 'a vendor key on a trajectory (no hatch in the suite)',
    set: '/tasks/0/expected/trajectory/x-acme',
    to: 1,
    keyword: 'additionalProperties',
    errorAt: '/tasks/0/expected/trajectory',
  },
  {
    schema: 'agent-eval-suite',
    defect: 'an expected call without tool',
    set: '/tasks/0/expected/trajectory/calls/0',
    to: { args: {} },
    keyword: 'required',
  },
  {
    schema: 'eval-summary',
    defect: 'a task trials block with an unknown passRule',
    set: '/tasks/0/trials/passRule',
    to: 'median',
    keyword: 'enum',
  },
  {
    schema: 'eval-started',
    defect: 'trials.count above 100',
    set: '/trials/count',
    to: 101,
    keyword: 'maximum',
  },
  {
    schema: 'eval-scored',
    defect: 'a trajectoryMatched that is not a boolean',
    set: '/trajectoryMatched',
    to: 'yes',
    keyword: 'type',
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

/** Identifier validators take strings; everything else takes an object. */
const STRING_SCHEMAS: ReadonlySet<SchemaName> = new Set([
  'run-id',
  'event-id',
  'agent-id',
  'node-id',
]);

describe('schemas', () => {
  it.each(SCHEMA_NAMES)(
    '%s compiles under strict mode and rejects a value of the wrong type',
    (name) => {
      const errors = validate(name, STRING_SCHEMAS.has(name) ? 7 : null);
      expect(errors).toContainEqual(expect.objectContaining({ schema: name, keyword: 'type' }));
    },
  );

  it.each(SCHEMA_NAMES)(
    '%s names the file that holds it, and that file carries the $id',
    (name) => {
      const file = SCHEMA_FILES[name];
      const base = /^schemas\/v2\/([a-z-]+)\.schema\.json$/.exec(file)?.[1];
      expect(base, file).toBeDefined();
      const id = readFile(file).$id;
      expect(schemaId(name).split('#')[0]).toBe(id);
      expect([`${PUBLISHED}${base}.schema.json`, `urn:openwop:v2:${base}`]).toContain(id);
    },
  );

  it("published structures carry their published $id, the suite's own documents a urn", () => {
    expect(schemaId('agent-eval-suite')).toBe(`${PUBLISHED}agent-eval-suite.schema.json`);
    expect(schemaId('eval-summary')).toBe(`${PUBLISHED}eval-summary.schema.json`);
    expect(schemaId('run-event')).toBe(`${PUBLISHED}run-event.schema.json`);
    expect(schemaId('error-envelope')).toBe(`${PUBLISHED}error-envelope.schema.json`);
    expect(schemaId('eval-scored')).toBe(
      `${PUBLISHED}run-event-payloads.schema.json#/$defs/evalScored`,
    );
    expect(schemaId('run-id')).toBe(`${PUBLISHED}ids.schema.json#/$defs/runId`);
    expect(schemaId('poll-response')).toBe('urn:openwop:v2:poll-response');
    expect(schemaId('create-run-answer')).toBe('urn:openwop:v2:create-run-answer');
    expect(schemaId('discovery')).toBe('urn:openwop:v2:discovery');
    expect(schemaId('fixture')).toBe('urn:openwop:v2:fixture');
  });

  it.each([...new Set(Object.values(SCHEMA_FILES))])('%s describes every property', (file) => {
    const problems: string[] = [];
    for (const [path, node] of nodes(readFile(file))) {
      if (node.properties === undefined || /\/(if|then)(\/|$)/.test(path)) continue;
      for (const [prop, def] of Object.entries(node.properties as Record<string, Doc>)) {
        if (typeof def !== 'object' || typeof def.description !== 'string') {
          problems.push(`${path}/${prop}: no description`);
        }
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

  it('the descriptions name the gating score where RFC 0246 asks', () => {
    const s = readFile(SCHEMA_FILES['eval-summary']) as {
      properties: Record<string, Doc>;
      $defs: Doc;
    };
    expect(s.properties.passed?.description).toMatch(/gatedAggregateScore/);
    expect(s.properties.gatedAggregateScore?.description).toMatch(/RFC 0246 §A.*RFC 0246 §D/s);
    const taskProps = sub(s.$defs, 'task', 'properties') as Record<string, Doc>;
    expect(taskProps.gatedScore?.description).toMatch(/RFC 0246 §A.*RFC 0246 §D/s);
    const suite = readFile(SCHEMA_FILES['agent-eval-suite']);
    expect(sub(suite, 'properties', 'trials', 'properties', 'passRule').description).toMatch(
      /`mean`: the task's gating score/,
    );
  });
});

describe('formatSchemaErrors', () => {
  const err = (i: number): SchemaError => ({
    schema: 'run-event',
    instancePath: `/p${i}`,
    keyword: 'type',
    message: `must be number ${i}`,
  });

  it('prints one line per error up to the cap, then how many were left out', () => {
    expect(formatSchemaErrors([err(1), err(2), err(3), err(4), err(5)], 2)).toBe(
      'run-event#/p1 type: must be number 1\nrun-event#/p2 type: must be number 2\n(+3 more)',
    );
  });

  it('prints every error when they fit under the default cap of 3', () => {
    expect(formatSchemaErrors([err(1), err(2), err(3)]).split('\n')).toHaveLength(3);
    expect(formatSchemaErrors([])).toBe('');
  });

  it('names the extra member an additionalProperties error is about', () => {
    const summary = meanGatedSummary() as Doc & { tasks: Doc[] };
    (summary.tasks[0] as Doc)['x-note'] = 'vendor keys have no hatch on the summary';
    expect(formatSchemaErrors(validate('eval-summary', summary))).toBe(
      'eval-summary#/tasks/0 additionalProperties: must NOT have additional properties (x-note)',
    );
  });

  it('names the missing member a required error is about', () => {
    const suite = contractSuite() as { tasks: { expected: Doc }[] };
    delete suite.tasks[0]?.expected.kind;
    expect(formatSchemaErrors(validate('agent-eval-suite', suite))).toBe(
      "agent-eval-suite#/tasks/0/expected required: must have required property 'kind' (kind)",
    );
  });

  it('lists the allowed values of an enum, capped at eight', () => {
    const small = formatSchemaErrors(
      validate('agent-invocation-started', { invocationId: 'i', agentId: 'a', source: 'cron' }),
    );
    expect(small).toBe(
      'agent-invocation-started#/source enum: must be equal to one of the allowed values (allowed: "workflow-node", "run-api", "chat-mention")',
    );
    const large = formatSchemaErrors(
      validate('error-envelope', { error: 'eval_gate_unmet', message: 'm' }),
      1,
    );
    expect(large).toMatch(
      /^error-envelope#\/error enum: .*\(allowed: "connection_provider_unresolved", .*, … 107 in all\)\n\(\+2 more\)$/,
    );
  });

  it('quotes the pattern a pattern error is about once, through the message', () => {
    expect(formatSchemaErrors(validate('event-id', 'abcdefgh'))).toBe(
      'event-id# pattern: must match pattern "^[A-Za-z0-9._~-]{16,128}$"',
    );
  });

  it('carries Ajv params on each error', () => {
    expect(validate('run-completed', { output: {} })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ keyword: 'required', params: { missingProperty: 'outputs' } }),
        expect.objectContaining({
          keyword: 'additionalProperties',
          params: { additionalProperty: 'output' },
        }),
      ]),
    );
  });
});
