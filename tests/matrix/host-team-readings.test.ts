// The readings host teams took from the docs and got certified, each now a reference-host defect:
// the hand-written legs alone catch every one (a leg of its matrix row fails, or, for a
// credential reading no leg drives, a host check that every run makes), and the generated pack
// alone catches every one a suite document can carry (its smallest-pack row is caught by the
// pack). The matrix tests hold expected.ts to runs and the smallest-pack test holds the table of
// docs/generated-suites.md to runs; this test holds the list below to both, so a reading that
// loses its hand-written catch or its pack catch shows here by name.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFECTS, type DefectName } from '../../reference-host/defects.ts';
import { recordedRows } from '../generate/smallest-table.ts';
import { EXPECTED, LEG_SLUGS } from './expected.ts';
import { hostCheckFailures } from './host-checks-expected.ts';

interface Reading {
  /** The reading, as a host team took it. */
  readonly reading: string;
  readonly defects: readonly DefectName[];
  /** Why the pack cannot carry it, where it cannot; absent where it must catch it. */
  readonly packCannot?: string;
}

const KEY_CHECK = 'what a suite document holds changes nothing about how a key is checked';

const READINGS: readonly Reading[] = [
  { reading: '`exact` trims whitespace', defects: ['exact-trims-whitespace'] },
  {
    reading: '`exact` on a non-string compares its text with the members sorted',
    defects: ['exact-members-sorted'],
  },
  {
    reading: '`exact` on a non-string value compares JSON values, not texts',
    defects: ['exact-non-string-as-value'],
  },
  { reading: 'args match when their JSON texts are equal', defects: ['args-compared-as-text'] },
  {
    reading: 'an array in args matches its items in any order',
    defects: ['args-arrays-unordered'],
  },
  { reading: '`json-match` parses a string output', defects: ['json-match-parses-string'] },
  {
    reading: '`json-match` compares arrays as unordered sets',
    defects: ['json-match-arrays-unordered'],
  },
  { reading: 'args match as a subset of the observed args', defects: ['args-subset'] },
  {
    reading: 'the p95 is taken over one latency per task, not per trial',
    defects: ['p95-over-task-means', 'p95-over-task-sums'],
  },
  {
    reading: 'a bearer token that nearly equals the key is accepted',
    defects: [
      'key-prefix-accepted',
      'key-case-insensitive',
      'key-last-character-unchecked',
      'key-truncation-accepted',
    ],
    packCannot: KEY_CHECK,
  },
  { reading: 'rule `any` counts a trial by its score', defects: ['any-rule-counts-scores'] },
  {
    reading: '`exact` and `contains` compare without case',
    defects: ['golden-case-insensitive'],
  },
  {
    reading: 'an expected trajectory with no calls is no trajectory',
    defects: ['empty-trajectory-ungated'],
  },
  {
    reading: 'a task that lists no `toolResponses` misses every call',
    defects: ['absent-responses-miss'],
  },
  {
    reading: 'a missed task without a trajectory carries `gatedScore`',
    defects: ['miss-gates-ungated-task'],
  },
  {
    reading: 'a gated aggregate of 0 is left out',
    defects: ['gated-aggregate-omitted-when-zero'],
  },
  // A page marked terminal by the run's status alone is no defect: upstream's isTerminal says
  // the run is terminal, so the log reader reads on to lastSequence, and the varied reference
  // host takes that reading in every matrix row.
  {
    reading: "trials are counted from the script's length",
    defects: ['trials-from-script-length'],
  },
  {
    reading: 'a task without a trials block passes on `gatedScore ≥ passScore`',
    defects: ['single-trial-passed-by-gated-score'],
  },
];

const page = readFileSync(new URL('../../docs/generated-suites.md', import.meta.url), 'utf8');
const packRows = recordedRows(page);

/** The legs of a defect's matrix row that do not pass. */
function failingLegs(defect: DefectName): string[] {
  const row = EXPECTED[defect];
  return LEG_SLUGS.filter((slug) => row[slug].disposition !== 'executed-pass');
}

const cases = READINGS.flatMap((r) => r.defects.map((defect) => ({ ...r, defect })));

describe('each reading host teams got certified is caught', () => {
  it('names only defects the reference host has', () => {
    const names = DEFECTS.map((d) => d.name);
    for (const { defect } of cases) expect(names).toContain(defect);
  });

  it.each(cases)('by the hand-written legs alone: $reading ($defect)', ({ defect, packCannot }) => {
    if (packCannot === undefined) {
      expect(failingLegs(defect), defect).not.toEqual([]);
    } else {
      // No leg drives the key check; the host checks of every run, hand legs alone included, do.
      expect(failingLegs(defect), defect).toEqual([]);
      expect(hostCheckFailures(defect), defect).toContain('auth.no-bypass');
    }
  });

  it.each(cases)('by the generated pack alone where it can: $reading ($defect)', (c) => {
    const row = packRows.find((r) => r.defect === c.defect);
    expect(row, `${c.defect} has no smallest-pack row`).toBeDefined();
    if (c.packCannot === undefined) {
      expect(row?.n, c.defect).not.toBeNull();
      expect(['generated pack', 'both'], c.defect).toContain(row?.caughtBy);
    } else {
      expect(row?.n, `${c.defect}: ${c.packCannot}`).toBeNull();
      expect(row?.caughtBy, c.defect).toBe('host checks of the same run');
    }
  });
});
