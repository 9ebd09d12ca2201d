// Every JSON Schema the suite ships, as validators compiled ahead of time by Ajv (2020-12, strict,
// every error, formats) into lib/generated/ by cli/compile-schemas.ts. A run loads no Ajv and
// compiles nothing; tests/generated-validators.test.ts keeps the files equal to what the schemas
// compile to. Errors come back as plain data that names the schema, the failing keyword, where in
// the instance it failed and Ajv's parameters, so a finding can name the member at fault.

import { requireWithCodeCache } from './code-cache.ts';
import { SCHEMA_IDS, SCHEMA_PATHS, VALIDATOR_MODULES } from './generated/schema-names.js';
import { packagePath } from './package-root.ts';

/**
 * A validator's name. Several names can live in one file: the eval and agent payloads are `$defs`
 * of run-event-payloads.schema.json and the identifiers `$defs` of ids.schema.json, as published.
 */
export type SchemaName = keyof typeof SCHEMA_IDS;

export const SCHEMA_NAMES = Object.keys(SCHEMA_IDS) as readonly SchemaName[];

export interface SchemaError {
  readonly schema: SchemaName;
  readonly instancePath: string;
  readonly keyword: string;
  readonly message: string;
  /** Ajv's keyword parameters: the extra or missing member, the allowed values, the pattern. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** Repo-relative path of the file holding each validator, so a report can name and digest it. */
export const SCHEMA_FILES: Readonly<Record<SchemaName, string>> = SCHEMA_PATHS;

/** The `$id` (with a `#/$defs/...` pointer for a definition) the named validator checks against. */
export function schemaId(name: SchemaName): string {
  return SCHEMA_IDS[name];
}

/** One of Ajv's errors, as its standalone code reports them. */
interface CompiledError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** Returns whether `data` is valid; when it is not, `errors` lists why. */
interface CompiledValidator {
  (data: unknown): boolean;
  readonly errors?: readonly CompiledError[] | null;
}

// The fixture's validator is a file of its own: a run checks its fixtures before it creates its
// runs, and the file holding the others (about a megabyte, a wait of its own on a busy machine)
// then loads while the host works (preloadValidators). Both are CommonJS, loaded synchronously the
// first time a check needs them, so `validate` stays a plain function wherever it is called. They
// are read from the package's lib/generated/, where the sources and dist/ both find them, with the
// code cache the build made of them (lib/code-cache.ts); the generated VALIDATOR_MODULES says
// which file holds which validator.
// One lookup per check once a validator is found: a run checks every event it reads.
const found: Partial<Record<SchemaName, CompiledValidator>> = {};

function compiled(name: SchemaName): CompiledValidator {
  return found[name] ?? find(name);
}

function find(name: SchemaName): CompiledValidator {
  const file = VALIDATOR_MODULES[name];
  // A file is evaluated once, so the next validator of the same file is only a lookup.
  const validators = requireWithCodeCache(packagePath(file)) as Readonly<
    Record<string, CompiledValidator | undefined>
  >;
  const fn = validators[name];
  if (fn === undefined) throw new Error(`${file} holds no validator ${name}`);
  found[name] = fn;
  return fn;
}

/**
 * Loads every validator file now, so no check waits for one later. A run calls it once its legs
 * have created their runs, when the process would otherwise sit idle until the host finishes.
 */
export function preloadValidators(): void {
  for (const file of new Set(Object.values(VALIDATOR_MODULES)))
    requireWithCodeCache(packagePath(file));
}

/** Checks `instance` against the named schema; an empty list means it is valid. */
export function validate(name: SchemaName, instance: unknown): readonly SchemaError[] {
  const fn = compiled(name);
  if (fn(instance)) return [];
  return (fn.errors ?? []).map((e) => ({
    schema: name,
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message ?? 'is invalid',
    ...(e.params === undefined ? {} : { params: e.params }),
  }));
}

/**
 * What the error is about, from Ajv's params: the member added or missing, the values allowed, the
 * branches matched. Empty when the message already says it (Ajv quotes a pattern or a bound).
 */
function detail(e: SchemaError): string {
  const p = e.params ?? {};
  switch (e.keyword) {
    case 'additionalProperties':
      return show(p.additionalProperty);
    case 'required':
      return show(p.missingProperty);
    case 'enum':
      return Array.isArray(p.allowedValues)
        ? `allowed: ${p.allowedValues
            .slice(0, 8)
            .map((v) => JSON.stringify(v))
            .join(', ')}${p.allowedValues.length > 8 ? `, … ${p.allowedValues.length} in all` : ''}`
        : '';
    case 'const':
      return 'allowedValue' in p ? `allowed: ${JSON.stringify(p.allowedValue)}` : '';
    case 'propertyNames':
      return show(p.propertyName);
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `branches matched: ${p.passingSchemas.join(', ')}`
        : '';
    default:
      return '';
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/**
 * One line per error, `<schema>#<instancePath> <keyword>: <message> (<detail>)`, then `(+N more)`;
 * the detail names the member at fault, e.g. `eval-summary#/tasks/0 additionalProperties: must NOT
 * have additional properties (x-note)`.
 */
export function formatSchemaErrors(errors: readonly SchemaError[], max = 3): string {
  const lines = errors.slice(0, max).map((e) => {
    const d = detail(e);
    return `${e.schema}#${e.instancePath} ${e.keyword}: ${e.message}${d === '' ? '' : ` (${d})`}`;
  });
  if (errors.length > max) lines.push(`(+${errors.length - max} more)`);
  return lines.join('\n');
}
