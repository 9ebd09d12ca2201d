// Every JSON Schema the suite ships, as validators compiled ahead of time by Ajv (2020-12, strict,
// every error, formats) into lib/generated/validators.js by cli/compile-schemas.ts. A run loads no
// Ajv and compiles nothing; tests/generated-validators.test.ts keeps the module equal to what the
// schemas compile to. Errors come back as plain data that names the schema, the failing keyword
// and where in the instance it failed.

import { SCHEMA_IDS, VALIDATORS } from './generated/validators.js';
import type { CompiledError } from './generated/validators.js';

/** A name `n` lives in `schemas/v2/<n>.schema.json` with `$id` `urn:openwop:v2:<n>`. */
export type SchemaName = keyof typeof SCHEMA_IDS;

export const SCHEMA_NAMES = Object.keys(SCHEMA_IDS) as readonly SchemaName[];

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
  return SCHEMA_IDS[name];
}

/** Checks `instance` against the named schema; an empty list means it is valid. */
export function validate(name: SchemaName, instance: unknown): readonly SchemaError[] {
  const fn = VALIDATORS[name];
  if (fn(instance)) return [];
  return (fn.errors ?? []).map((e: CompiledError) => ({
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
