// The precompiled validators in lib/generated/ are what Ajv makes of today's schemas: regenerating
// them yields the committed bytes, so a schema edit without `npx tsx cli/compile-schemas.ts` fails
// here. What they load at run time is Ajv's small runtime, never the compiler.

import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  expectedId,
  GENERATED_FIXTURE_VALIDATOR,
  GENERATED_NAMES,
  GENERATED_NAMES_DTS,
  GENERATED_VALIDATORS,
  generateValidators,
  RUNTIME_FORMATS,
} from '../cli/schema-codegen.ts';
import { VALIDATOR_MODULES } from '../lib/generated/schema-names.js';
import { SCHEMA_FILES, SCHEMA_NAMES } from '../lib/schemas.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('precompiled validators', () => {
  it('regenerating from schemas/v2 yields exactly the committed files', async () => {
    const { files } = await generateValidators(ROOT);
    expect(Object.keys(files).sort()).toEqual(
      [
        GENERATED_NAMES,
        GENERATED_NAMES_DTS,
        GENERATED_FIXTURE_VALIDATOR,
        GENERATED_VALIDATORS,
      ].sort(),
    );
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(join(ROOT, path), 'utf8'), `${path} is stale`).toBe(text);
    }
    // Compiling every schema is a second of CPU on a quiet machine and ten on a loaded one: the
    // bound is for a hang, not for speed.
  }, 120_000);

  it('every schema file holds a validator and every validator names a shipped file', () => {
    const files = readdirSync(join(ROOT, 'schemas/v2'))
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => `schemas/v2/${f}`);
    expect([...new Set(Object.values(SCHEMA_FILES))].sort()).toEqual(files.sort());
  });

  it('exports exactly the validator names the brief fixes', () => {
    expect([...SCHEMA_NAMES].sort()).toEqual(
      [
        'agent-eval-suite',
        'eval-summary',
        'eval-started',
        'eval-scored',
        'eval-completed',
        'run-event',
        'poll-response',
        'create-run-answer',
        'error-envelope',
        'discovery',
        'run-id',
        'event-id',
        'agent-id',
        'node-id',
        'agent-invocation-started',
        'agent-invocation-completed',
        'agent-tool-called',
        'agent-tool-returned',
        'agent-decided',
        'run-completed',
        'fixture',
        'matrix',
        'eval-gate-statement',
        'eval-gate-report',
      ].sort(),
    );
  });

  it('a schema whose $id breaks the convention is refused at generation', async () => {
    expect(expectedId('ids')).toBe('https://openwop.dev/spec/v2/ids.schema.json');
    expect(expectedId('poll-response')).toBe('urn:openwop:v2:poll-response');
    const root = await mkdtemp(join(tmpdir(), 'schema-codegen-'));
    try {
      await cp(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true });
      const file = join(root, 'schemas/v2/poll-response.schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...schema, $id: 'urn:openwop:v2:poll' }));
      await expect(generateValidators(root)).rejects.toThrow(
        /poll-response\.schema\.json: \$id must be urn:openwop:v2:poll-response/,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('the fixture validator stands alone, and the other file holds every other validator', () => {
    const exported = (path: string): string[] =>
      [...readFileSync(join(ROOT, path), 'utf8').matchAll(/^exports(?:\.|\[')([\w-]+)/gm)].map(
        (m) => m[1] ?? '',
      );
    expect(exported(GENERATED_FIXTURE_VALIDATOR)).toEqual(['fixture']);
    expect(exported(GENERATED_VALIDATORS).sort()).toEqual(
      SCHEMA_NAMES.filter((n) => n !== 'fixture').sort(),
    );
    // The table lib/schemas.ts loads by names, for each validator, the file that exports it.
    for (const name of SCHEMA_NAMES) expect(exported(VALIDATOR_MODULES[name])).toContain(name);
  });

  it('at run time the validator files require only Ajv runtime helpers and the formats module', () => {
    for (const path of [GENERATED_FIXTURE_VALIDATOR, GENERATED_VALIDATORS]) {
      const text = readFileSync(join(ROOT, path), 'utf8');
      const required = [...text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
      expect(text, path).not.toMatch(/^import /m);
      expect(required.length, path).toBeGreaterThan(0);
      // Ajv's runtime helpers, and lib/schema-formats.cjs for the string formats.
      const other = required.filter(
        (s) => s !== RUNTIME_FORMATS && !/^ajv\/dist\/runtime\/[\w-]+$/.test(s ?? ''),
      );
      expect(other, path).toEqual([]);
    }
    // The formats a schema names are checked through that module: date-time on every event.
    expect(readFileSync(join(ROOT, GENERATED_VALIDATORS), 'utf8')).toContain(
      `require('${RUNTIME_FORMATS}')['date-time']`,
    );
    expect(readFileSync(join(ROOT, GENERATED_NAMES), 'utf8')).not.toMatch(/\b(import|require)\b/);
  });
});
