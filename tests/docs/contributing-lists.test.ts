// What `npm test` holds of the contributing guide's promise, cheaply. The promise itself (a leg and
// a probe added in a copy of the repository need exactly the files the guide lists, and the tests
// it names pass in both lanes) is `npm run test:contributing`, which compiles and tests a whole
// copy and so runs outside `npm test`. These checks keep the guide, its lists and that command from
// drifting apart in between: a list naming a file that is gone, a test `npm test` no longer runs,
// a doc `npm run docs:generate` does not write, or a command that runs something else.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_VALIDATORS } from '../../cli/schema-codegen.ts';
import { REPORT_SCHEMA } from './generated-schema.ts';
import { GENERATED } from './generated-tables.ts';
import { ROOT, readRepoFile } from './markdown.ts';

const GUIDE = 'docs/contributing.md';
const CHECK = 'tests/contributing/new-leg.check.ts';

/** The items of the list under `<!-- marker -->` in the guide: `1. \`path\`` or `- \`path\``. */
function listedUnder(marker: string): string[] {
  const lines = readRepoFile(GUIDE).split('\n');
  const start = lines.indexOf(`<!-- ${marker} -->`);
  if (start === -1) throw new Error(`${GUIDE} has no "<!-- ${marker} -->"`);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' && items.length === 0) continue;
    const item = /^(?:\d+\.|-) `([^`]+)`/.exec(line);
    if (item?.[1] === undefined) break;
    items.push(item[1]);
  }
  return items;
}

const WRITTEN_IN = [
  'the files a new leg is written in',
  'the files a new host check is written in',
] as const;
const REWRITTEN = [
  'the files npm run docs:generate rewrites for a new leg',
  'the files npm run docs:generate rewrites for a new host check',
] as const;

/** Every file `npm run docs:generate` (tests/docs/write-tables.ts) can write. */
const DOCS_GENERATE_WRITES = new Set([
  ...Object.keys(GENERATED),
  'docs/traceability.md',
  REPORT_SCHEMA,
  GENERATED_VALIDATORS,
]);

describe("the contributing guide's lists", () => {
  it.each(WRITTEN_IN)('"%s" names files that exist', (marker) => {
    const listed = listedUnder(marker);
    expect(listed.length).toBeGreaterThan(0);
    const missing = listed
      .filter((path) => !path.includes('<fixture id>'))
      .filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it.each(REWRITTEN)('"%s" names only files npm run docs:generate writes', (marker) => {
    const listed = listedUnder(marker);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((path) => !DOCS_GENERATE_WRITES.has(path))).toEqual([]);
  });

  it('names tests that exist and that npm test runs', () => {
    const tests = listedUnder('the tests that hold a new leg and a new host check');
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    // npm test runs every *.test.ts under tests/ but the legs file; a listed test must be one.
    expect(tests.filter((path) => !/^tests\/.+\.test\.ts$/.test(path))).toEqual([]);
  });

  it('names the command that runs its check, and that command runs it', () => {
    const guide = readRepoFile(GUIDE);
    expect(guide).toContain('`npm run test:contributing`');
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['test:contributing']).toBe('vitest run --project contributing');
    expect(scripts['test']).not.toContain('contributing');
    expect(readRepoFile('vitest.config.ts')).toContain(`'${CHECK}'`);
    expect(existsSync(join(ROOT, CHECK))).toBe(true);
    // The check reads the same lists this file reads, by the same markers.
    const check = readRepoFile(CHECK);
    for (const marker of [...WRITTEN_IN, ...REWRITTEN]) expect(check).toContain(`'${marker}'`);
  });
});
