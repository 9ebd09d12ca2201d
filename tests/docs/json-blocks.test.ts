// Every ```json block in docs/ and README.md parses, declares what it is, and, when it declares a
// wire document, validates against that document's schema: an example a host copies is one the
// suite would accept. The declaration grammar is in json-blocks.ts and docs/contributing.md.

import { describe, expect, it } from 'vitest';

import { SCHEMA_NAMES, validate, formatSchemaErrors, type SchemaName } from '../../lib/schemas.ts';
import { jsonBlocks } from './json-blocks.ts';
import { readRepoFile, trackedFiles } from './markdown.ts';

const DOCS = trackedFiles().filter((f) => /^docs\/.*\.md$/.test(f) || f === 'README.md');

function isSchemaName(name: string): name is SchemaName {
  return (SCHEMA_NAMES as readonly string[]).includes(name);
}

/** What is wrong with one block, or null when it parses, declares itself and validates. */
function blockProblem(block: ReturnType<typeof jsonBlocks>['blocks'][number]): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.text);
  } catch (e) {
    return `is not JSON (${(e as Error).message}); fence a fragment as jsonc`;
  }
  const declared = block.declared;
  if (declared === undefined) {
    return 'declares nothing: put <!-- validates as: NAME --> or <!-- not a wire document: REASON --> above it';
  }
  if ('notWire' in declared) return null;
  if (!isSchemaName(declared.schema)) {
    return `names no schema: "${declared.schema}" is not one of ${SCHEMA_NAMES.join(', ')}`;
  }
  const errors = validate(declared.schema, parsed);
  return errors.length === 0 ? null : `does not validate:\n${formatSchemaErrors(errors, 5)}`;
}

describe('the JSON in the docs', () => {
  it('scans the docs that carry wire examples', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS).toContain('docs/host-guide.md');
    expect(DOCS).toContain('docs/wire-contract.md');
  });

  it('every json block parses, declares what it is, and a wire document validates', () => {
    const problems: string[] = [];
    let validated = 0;
    for (const file of DOCS) {
      const { blocks, orphans } = jsonBlocks(readRepoFile(file));
      for (const block of blocks) {
        const problem = blockProblem(block);
        if (problem !== null) problems.push(`${file}:${block.line}: the json block ${problem}`);
        else if (block.declared !== undefined && 'schema' in block.declared) validated += 1;
      }
      for (const o of orphans) {
        problems.push(`${file}:${o.line}: ${o.comment} heads no json block`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(validated).toBeGreaterThanOrEqual(3);
  });
});

describe('the block reader', () => {
  const doc = (...lines: string[]): string => lines.join('\n');

  it('reads the declaration above a block across blank lines, and none across prose', () => {
    const { blocks } = jsonBlocks(
      doc(
        '<!-- validates as: discovery -->',
        '',
        '```json',
        '{}',
        '```',
        '<!-- not a wire document: a badge -->',
        'prose between',
        '```json',
        '[]',
        '```',
      ),
    );
    expect(blocks).toEqual([
      { line: 3, text: '{}', declared: { schema: 'discovery' } },
      { line: 8, text: '[]' },
    ]);
  });

  it('skips jsonc fragments and reports a declaration that heads no json block', () => {
    const { blocks, orphans } = jsonBlocks(
      doc(
        '<!-- validates as: eval-summary -->',
        '```jsonc',
        '{"a": 1, // part',
        '```',
        '<!-- not a wire document: x -->',
      ),
    );
    expect(blocks).toEqual([]);
    expect(orphans.map((o) => o.line)).toEqual([1, 5]);
  });

  it('refuses a block that is not JSON, declares nothing, names no schema or fails its schema', () => {
    const problem = (
      text: string,
      declared?: { schema: string } | { notWire: string },
    ): string | null =>
      blockProblem({ line: 1, text, ...(declared === undefined ? {} : { declared }) });
    expect(problem('{"a": 1,}', { notWire: 'x' })).toMatch(/is not JSON/);
    expect(problem('{}')).toMatch(/declares nothing/);
    expect(problem('{}', { schema: 'no-such-schema' })).toMatch(/names no schema/);
    expect(problem('{"protocolVersions": []}', { schema: 'discovery' })).toMatch(
      /does not validate:\ndiscovery#/,
    );
    expect(
      problem('{"protocolVersions": ["2.0"], "preferredVersion": "2.0"}', { schema: 'discovery' }),
    ).toBeNull();
  });
});
