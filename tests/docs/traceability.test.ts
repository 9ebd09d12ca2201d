// Every requirement sentence of the host guide, the wire contract and rfc-0246.md is traced:
// it has an id, its id has a trace, and a trace that names a defect names one the matrix's
// expected table says is caught. docs/traceability.md is the generated rendering of it.

import { describe, expect, it } from 'vitest';
import { readRepoFile } from './markdown.ts';
import {
  catchesOf,
  formattedTraceability,
  gateCatches,
  isKnownRule,
  TRACE,
  tracedSentences,
} from './traceability.ts';
import { GATE_ROWS } from '../matrix/expected.ts';

const sentences = tracedSentences();

describe('requirement sentences', () => {
  it('finds the sentences it traces', () => {
    expect(sentences.length).toBeGreaterThan(50);
  });

  it('gives every requirement sentence an id (add <a id="hg-N"></a> at its start)', () => {
    const untraced = sentences
      .filter((s) => s.id === undefined)
      .map((s) => `${s.doc}:${s.line}: ${s.text.slice(0, 80)}`);
    expect(untraced).toEqual([]);
  });

  it('gives each id to one sentence only', () => {
    const ids = sentences.flatMap((s) => (s.id === undefined ? [] : [s.id]));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('maps every id to a trace, and traces no id the documents do not carry', () => {
    const ids = new Set(sentences.flatMap((s) => (s.id === undefined ? [] : [s.id])));
    expect([...ids].filter((id) => TRACE[id] === undefined)).toEqual([]);
    expect(Object.keys(TRACE).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('traces', () => {
  it('name only rules of the catalogue', () => {
    const unknown = Object.entries(TRACE).flatMap(([id, t]) =>
      t.kind === 'rules' ? t.rules.filter((r) => !isKnownRule(r)).map((r) => `${id}: ${r}`) : [],
    );
    expect(unknown).toEqual([]);
  });

  it('name a gate defect only where the matrix expects the gate to fail legs', () => {
    const uncaught = Object.entries(TRACE).flatMap(([id, t]) =>
      t.kind === 'gate' && (gateCatches(t.defect).length === 0 || GATE_ROWS[t.defect] === undefined)
        ? [`${id}: ${t.defect}`]
        : [],
    );
    expect(uncaught).toEqual([]);
  });

  it('derive every defect they name from a cell of the expected table that fails or warns', () => {
    for (const trace of Object.values(TRACE)) {
      if (trace.kind !== 'rules') continue;
      for (const rule of trace.rules) {
        for (const c of catchesOf(rule))
          expect(c.where.length, `${rule} ${c.defect}`).toBeGreaterThan(0);
      }
    }
  });

  it('catch the defects of this version in the legs built for them', () => {
    const where = (rule: string, defect: string): readonly string[] =>
      catchesOf(rule).find((c) => c.defect === defect)?.where ?? [];
    expect(where('suite.passed', 'p95-over-task-maxima')).toEqual(['latency-limit-over-trials']);
    expect(where('suite.passed', 'empty-exact-matches-any')).toEqual(['readings-exact-empty']);
    expect(where('wire.summary-task-order', 'summary-tasks-sorted')).toContain(
      'no-trajectory-ungated',
    );
  });
});

describe('docs/traceability.md', () => {
  it('is generated from the traces (else run `npm run docs:generate`)', async () => {
    expect(readRepoFile('docs/traceability.md')).toBe(await formattedTraceability());
  });
});
