// The precompiled validators in lib/generated/ are what Ajv makes of today's schemas: regenerating
// them yields the committed bytes, so a schema edit without `npx tsx cli/compile-schemas.ts` fails
// here. What they load at run time is Ajv's small runtime, never the compiler.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATED_DTS, GENERATED_JS, generateValidators } from '../cli/schema-codegen.ts';
import { SCHEMA_NAMES } from '../lib/schemas.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('precompiled validators', () => {
  it('regenerating from schemas/v2 yields exactly the committed module and its types', async () => {
    const { files } = await generateValidators(ROOT);
    expect(Object.keys(files).sort()).toEqual([GENERATED_DTS, GENERATED_JS].sort());
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is stale`).toBe(text);
    }
  });

  it('every schema file has a validator and no validator lacks a schema file', () => {
    const files = readdirSync(join(ROOT, 'schemas/v2'))
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => f.replace(/\.schema\.json$/, ''));
    expect([...SCHEMA_NAMES].sort()).toEqual(files.sort());
  });

  it('at run time the module requires only Ajv runtime helpers and ajv-formats formats', () => {
    const text = readFileSync(join(ROOT, GENERATED_JS), 'utf8');
    const required = [...text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    const imported = [...text.matchAll(/^import .* from ['"]([^'"]+)['"];$/gm)].map((m) => m[1]);
    expect(imported).toEqual(['node:module']);
    expect(required.length).toBeGreaterThan(0);
    for (const specifier of required) {
      expect(specifier).toMatch(/^(ajv\/dist\/runtime\/[\w-]+|ajv-formats\/dist\/formats)$/);
    }
  });
});
