// The only owner of Ajv. Every JSON Schema the suite ships is registered here once, compiled the
// first time it is needed and reused for the life of the process. Errors come back as plain data
// that names the schema, the failing keyword and where in the instance it failed.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import agentEvalSuite from '../schemas/v2/agent-eval-suite.schema.json' with { type: 'json' };
import discoveryEvalSuite from '../schemas/v2/discovery-eval-suite.schema.json' with { type: 'json' };
import evalCompleted from '../schemas/v2/eval-completed.schema.json' with { type: 'json' };
import evalScored from '../schemas/v2/eval-scored.schema.json' with { type: 'json' };
import evalStarted from '../schemas/v2/eval-started.schema.json' with { type: 'json' };
import evalSummary from '../schemas/v2/eval-summary.schema.json' with { type: 'json' };
import evalGateReport from '../schemas/v2/eval-gate-report.schema.json' with { type: 'json' };
import event from '../schemas/v2/event.schema.json' with { type: 'json' };
import fixture from '../schemas/v2/fixture.schema.json' with { type: 'json' };

/**
 * Every schema, by name. A name `n` lives in `schemas/v2/<n>.schema.json` with `$id`
 * `urn:openwop:v2:<n>`, so adding a schema is its import plus one entry here.
 */
const SCHEMAS = {
  'eval-summary': evalSummary,
  'agent-eval-suite': agentEvalSuite,
  event,
  'eval-started': evalStarted,
  'eval-scored': evalScored,
  'eval-completed': evalCompleted,
  'discovery-eval-suite': discoveryEvalSuite,
  fixture,
  'eval-gate-report': evalGateReport,
} as const satisfies Readonly<Record<string, { readonly $id: string }>>;

export type SchemaName = keyof typeof SCHEMAS;

export const SCHEMA_NAMES = Object.keys(SCHEMAS) as readonly SchemaName[];

export interface SchemaError {
  readonly schema: SchemaName;
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
}

/** Repo-relative path of each schema file, so a report can name and digest what it used. */
export const SCHEMA_FILES: Readonly<Record<SchemaName, string>> = Object.freeze(
  Object.fromEntries(SCHEMA_NAMES.map((n) => [n, `schemas/v2/${n}.schema.json`])) as Record<
    SchemaName,
    string
  >,
);

export function schemaId(name: SchemaName): string {
  return SCHEMAS[name].$id;
}

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv === undefined) {
    const created = new Ajv2020({ strict: true, allErrors: true });
    addFormats(created);
    // Registering every schema before any compiles lets them `$ref` each other by `$id`.
    for (const schema of Object.values(SCHEMAS)) created.addSchema(schema);
    ajv = created;
  }
  return ajv;
}

function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (fn === undefined) {
    const found = instance().getSchema(schemaId(name));
    if (found === undefined) throw new Error(`schema ${name} is not registered`);
    fn = found;
    compiled.set(name, fn);
  }
  return fn;
}

/** Checks `instance` against the named schema; an empty list means it is valid. */
export function validate(name: SchemaName, instance: unknown): readonly SchemaError[] {
  const fn = validatorFor(name);
  if (fn(instance)) return [];
  return (fn.errors ?? []).map((e: ErrorObject) => ({
    schema: name,
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message ?? 'is invalid',
  }));
}

/** One line per error, `<schema>#<instancePath> <keyword>: <message>`, then `(+N more)`. */
export function formatSchemaErrors(errors: readonly SchemaError[], max = 3): string {
  const lines = errors
    .slice(0, max)
    .map((e) => `${e.schema}#${e.instancePath} ${e.keyword}: ${e.message}`);
  if (errors.length > max) lines.push(`(+${errors.length - max} more)`);
  return lines.join('\n');
}
