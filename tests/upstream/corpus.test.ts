// Every row of the upstream corpus against the suite's validators: upstream-valid documents are
// accepted, upstream-invalid ones are rejected at the place and with the keyword the published
// structure would use, and every validator has rows of both kinds.

import { describe, expect, it } from 'vitest';
import { formatSchemaErrors, SCHEMA_NAMES, validate } from '../../lib/schemas.ts';
import { ACCEPTED, REJECTED } from './corpus.ts';
import type { Rejected } from './corpus.ts';

type Doc = Record<string, unknown>;

function build(row: Rejected): unknown {
  const doc = row.instance();
  if (row.set === undefined) return doc;
  const keys = row.set.split('/').slice(1);
  const last = keys.pop() ?? '';
  const parent = keys.reduce<unknown>((node, key) => (node as Doc)[key], doc) as Doc;
  if ('to' in row) parent[last] = row.to;
  else delete parent[last];
  return doc;
}

/** Validators whose corpus is elsewhere: the suite's own report, matrix and statement have their own tests. */
const OWN_DOCUMENTS = new Set(['eval-gate-report', 'matrix', 'eval-gate-statement']);

describe('upstream corpus', () => {
  it.each(ACCEPTED)('$schema accepts $what', (row) => {
    expect(formatSchemaErrors(validate(row.schema, row.instance()), 10)).toBe('');
  });

  it.each(REJECTED)('$schema rejects $what ($keyword)', (row) => {
    const errors = validate(row.schema, build(row));
    const at = row.at ?? row.set ?? '';
    const expected: Doc = { keyword: row.keyword, instancePath: at };
    if (row.member !== undefined) {
      expected.params =
        row.keyword === 'required'
          ? { missingProperty: row.member }
          : { additionalProperty: row.member };
    }
    expect(errors).toContainEqual(expect.objectContaining(expected));
  });

  it.each(SCHEMA_NAMES.filter((n) => !OWN_DOCUMENTS.has(n)))(
    '%s has corpus rows that must be accepted and rows that must be rejected',
    (name) => {
      expect(ACCEPTED.some((r) => r.schema === name)).toBe(true);
      expect(REJECTED.some((r) => r.schema === name)).toBe(true);
    },
  );

  it('a rejected row fails only on its own edit: its base instance is accepted', () => {
    const bases = new Set(REJECTED.filter((r) => r.set !== undefined));
    for (const row of bases) {
      expect(formatSchemaErrors(validate(row.schema, row.instance())), row.what).toBe('');
    }
  });
});
