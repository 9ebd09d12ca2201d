// Defects switched on together: a comma list is checked (known, once each, no pair that hides one
// another), and a checked set turns on every switch it names, each for itself.

import { describe, expect, it } from 'vitest';
import { conflictOf, OVERRIDES, parseDefectList } from '../../reference-host/defect-set.ts';
import { DEFECTS, defectPredicate, type DefectName } from '../../reference-host/defects.ts';
import type { HostSuite, HostTask } from '../../reference-host/fixtures.ts';
import { goldenScore, gradeSuite, type TaskVerdict } from '../../reference-host/grading.ts';

const NAMES: readonly DefectName[] = DEFECTS.map((d) => d.name);

/** The clause sections a defect names: `RFC 0246 §B, §D` is two, `contract §6, §9` two. */
function sections(clause: string): string[] {
  let doc = '';
  return clause.split(', ').map((part) => {
    const match = /^(.*?)\s*(§\S+)/.exec(part);
    if (match === null) return part.replace(' [0244-assumed]', '');
    if (match[1] !== '') doc = match[1] ?? '';
    return `${doc} ${match[2] ?? ''}`;
  });
}

describe('a comma list of defects', () => {
  it('names each defect it lists, in order, spaces around the commas ignored', () => {
    expect(parseDefectList('cost-limit-dropped, latency-limit-dropped')).toEqual([
      'cost-limit-dropped',
      'latency-limit-dropped',
    ]);
  });

  it('refuses an unknown name in one line that lists every valid name', () => {
    const refusal = (): unknown => parseDefectList('cost-limit-dropped,latency-limit');
    expect(refusal).toThrow(/^unknown defect "latency-limit"; valid defects: /);
    expect(refusal).toThrow(NAMES.join(', '));
    expect(refusal).not.toThrow(/\n/);
  });

  it('refuses an empty item as an unknown defect rather than skipping it', () => {
    expect(() => parseDefectList('cost-limit-dropped,,p95-as-mean')).toThrow(/^unknown defect ""/);
  });

  it('refuses a defect named twice', () => {
    expect(() => parseDefectList('content-leak, p95-as-mean, content-leak')).toThrow(
      'defect content-leak is named twice',
    );
  });

  it('refuses two defects of which one leaves the other unreachable, naming why', () => {
    expect(() => parseDefectList('cost-limit-per-trial,cost-limit-dropped')).toThrow(
      'defects cost-limit-per-trial and cost-limit-dropped conflict: with cost-limit-dropped, ' +
        'the cost condition is not read at all, so cost-limit-per-trial could not show',
    );
  });

  it('refuses every overridden pair, in either order', () => {
    for (const o of OVERRIDES) {
      for (const loser of o.overrides) {
        expect(() => parseDefectList(`${o.defect},${loser}`)).toThrow(/ conflict: /);
        expect(() => parseDefectList(`${loser},${o.defect}`)).toThrow(/ conflict: /);
      }
    }
  });
});

describe('the override table', () => {
  it('names only real defects, and none overrides itself', () => {
    for (const o of OVERRIDES) {
      expect(NAMES).toContain(o.defect);
      for (const loser of o.overrides) expect(NAMES).toContain(loser);
      expect(o.overrides).not.toContain(o.defect);
    }
  });

  it('has no pair that overrides both ways, so a refusal names one winner', () => {
    for (const o of OVERRIDES) {
      for (const loser of o.overrides) {
        const back = OVERRIDES.find((p) => p.defect === loser && p.overrides.includes(o.defect));
        expect(back, `${o.defect} and ${loser}`).toBeUndefined();
      }
    }
  });

  it('holds an override that is real: under golden-never-graded, json-match-as-text changes no score', () => {
    const reordered = (defects: readonly DefectName[]): number =>
      goldenScore('json-match', { a: 1, b: 2 }, { b: 2, a: 1 }, defectPredicate(defects));
    // Alone, json-match-as-text shows: the same members in another order no longer match.
    expect([reordered([]), reordered(['json-match-as-text'])]).toEqual([1, 0]);
    // Beside golden-never-graded it cannot: the pair scores as golden-never-graded alone.
    expect(reordered(['golden-never-graded', 'json-match-as-text'])).toBe(
      reordered(['golden-never-graded']),
    );
    expect(conflictOf('json-match-as-text', 'golden-never-graded')).toMatch(
      /^with golden-never-graded, /,
    );
  });

  it('lets the two limit defects of docs/ci.md combine, and with them the rest of §B', () => {
    expect(conflictOf('cost-limit-dropped', 'latency-limit-dropped')).toBeUndefined();
    const sameClause = NAMES.filter((n) =>
      sections(DEFECTS.find((d) => d.name === n)?.clause ?? '').includes('RFC 0246 §B'),
    );
    const combining = sameClause.filter(
      (n) =>
        n !== 'cost-limit-dropped' &&
        conflictOf('cost-limit-dropped', n) === undefined &&
        conflictOf('latency-limit-dropped', n) === undefined,
    );
    // What each of these breaks is read beside the limit conditions, not instead of them.
    expect(combining.sort()).toEqual(
      [
        'any-rule-counts-scores',
        'any-rule-gated-by-mean',
        'completed-passed-old-rule',
        'gated-fields-but-old-passed',
        'latency-limit-dropped',
        'limits-exclusive',
        'rule-counts-trajectory-failed',
        'single-trial-passed-by-gated-score',
        'strict-greater-than',
        'trial-passed-ignores-trajectory',
        'trial-verdict-strict',
        'unmigrated-0244',
      ].sort(),
    );
  });
});

describe('a set of defects switched on together', () => {
  const task: HostTask = { taskId: 't', match: 'exact', value: 'ok' };
  const trial = (latencyMs: number, costUsd: number): TaskVerdict['trials'][number] => ({
    trial: 1,
    score: 1,
    matched: true,
    failedClosed: false,
    passed: true,
    gating: 1,
    output: 'ok',
    latencyMs,
    latencyStated: true,
    costUsd,
  });
  // Every task passes; the run costs 0.06 against 0.05 and its p95 is 3000 ms against 2000.
  const suite: HostSuite = {
    suiteId: 's',
    version: '1',
    modes: ['golden'],
    passScore: 0.6,
    maxCostUsd: 0.05,
    maxP95LatencyMs: 2000,
    tasks: [task],
  };
  const tasks: TaskVerdict[] = [
    { task, trials: [trial(3000, 0.03), trial(500, 0.03)], score: 1, gatedScore: 1, passed: true },
  ];
  const passed = (defects: readonly DefectName[]): boolean =>
    gradeSuite(suite, tasks, defectPredicate(defects)).passed;

  it('fails a suite over both limits with no defect, or with either limit dropped alone', () => {
    expect(passed([])).toBe(false);
    expect(passed(['cost-limit-dropped'])).toBe(false);
    expect(passed(['latency-limit-dropped'])).toBe(false);
  });

  it('passes it with both limits dropped: each switch answers for itself', () => {
    expect(passed(['cost-limit-dropped', 'latency-limit-dropped'])).toBe(true);
    expect(passed(['latency-limit-dropped', 'cost-limit-dropped'])).toBe(true);
  });
});
