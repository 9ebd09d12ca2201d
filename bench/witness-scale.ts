// Measurement 3: the witness on 1k, 10k and 100k trials against JSON.parse of the same host
// answers, the floor for touching the data at all. Each sample starts after a full collection,
// and the two are timed in alternating order within a round.

import { judgeEvalRun } from '../lib/eval-gate-witness.ts';
import type { Section } from './report.ts';
import { collectGarbage, fmt, fmtSummary, pairedRatios, summarize } from './stats.ts';
import type { Summary } from './stats.ts';
import { observationOf, syntheticRun } from './witness-fixture.ts';

const TRIALS_PER_TASK = 10;
const TARGET_RATIO = 3;
/** Linear means the per-trial cost at 100k stays within this factor of the cost at 1k. */
const LINEAR_SLACK = 2;

interface SizeResult {
  readonly trials: number;
  readonly bytes: number;
  readonly witness: Summary;
  readonly parse: Summary;
  readonly ratio: Summary;
  readonly microsPerTrial: number;
}

function timed(work: () => void): number {
  collectGarbage();
  const started = performance.now();
  work();
  return performance.now() - started;
}

function measureSize(taskCount: number, rounds: number): SizeResult {
  const run = syntheticRun(taskCount, TRIALS_PER_TASK);
  const observation = observationOf(JSON.parse(run.eventsText), JSON.parse(run.summaryText));
  const failed = judgeEvalRun(run.fixture, observation).filter((f) => !f.ok);
  if (failed.length > 0) {
    // A witness that rejects the run takes a different path; timing it would mislead.
    throw new Error(
      `the synthetic run is not clean: ${failed[0]?.rule ?? ''} ${failed[0]?.message ?? ''}`,
    );
  }
  const witness: number[] = [];
  const parse: number[] = [];
  const parseBoth = (): void => {
    JSON.parse(run.eventsText);
    JSON.parse(run.summaryText);
  };
  const judge = (): void => {
    judgeEvalRun(run.fixture, observation);
  };
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      parse.push(timed(parseBoth));
      witness.push(timed(judge));
    } else {
      witness.push(timed(judge));
      parse.push(timed(parseBoth));
    }
  }
  const w = summarize(witness);
  return {
    trials: run.trials,
    bytes: run.eventsText.length + run.summaryText.length,
    witness: w,
    parse: summarize(parse),
    ratio: summarize(pairedRatios(witness, parse)),
    microsPerTrial: (w.median * 1000) / run.trials,
  };
}

export function measureWitnessScale(rounds: number): Section {
  measureSize(100, 3); // warm-up: JIT and schema compilation, not recorded
  const sizes = [100, 1_000, 10_000].map((tasks) => measureSize(tasks, rounds));
  const small = sizes[0];
  const large = sizes.at(-1);
  if (small === undefined || large === undefined) throw new Error('no sizes measured');
  const ratio = large.witness.median / large.parse.median;
  const growth = large.microsPerTrial / small.microsPerTrial;
  const fast = ratio <= TARGET_RATIO;
  const linear = growth <= LINEAR_SLACK;
  const verdicts = [
    fast
      ? `at 100k trials the witness takes ${fmt(ratio)}× JSON.parse, within ${TARGET_RATIO}×`
      : `at 100k trials the witness takes ${fmt(ratio)}× JSON.parse, ${fmt(ratio - TARGET_RATIO)}× over ${TARGET_RATIO}×`,
    linear
      ? `cost per trial at 100k is ${fmt(growth)}× that at 1k (linear: within ${LINEAR_SLACK}×)`
      : `cost per trial at 100k is ${fmt(growth)}× that at 1k, over the ${LINEAR_SLACK}× allowed for linear`,
  ];
  return {
    title: '3. Witness time vs. JSON.parse of the same payloads',
    method:
      `bench/witness-fixture.ts generates N tasks × ${TRIALS_PER_TASK} trials (trajectory tasks, ` +
      `rule mean, every odd task with a forbidden call in its last trial) with the events and ` +
      `summary a correct host would send, as JSON text. The floor is JSON.parse of that text ` +
      `(events array + summary); the witness is judgeEvalRun on the parsed observation, which ` +
      `grades the fixture itself and checks every event and task. ${rounds} rounds per size, ` +
      `a full GC before each sample, parse and witness alternating order.`,
    headers: [
      'trials',
      'JSON bytes',
      'witness ms',
      'JSON.parse ms',
      'ratio witness / parse (×)',
      'witness µs per trial (median)',
    ],
    rows: sizes.map((s) => [
      s.trials.toLocaleString('en-US'),
      s.bytes.toLocaleString('en-US'),
      fmtSummary(s.witness),
      fmtSummary(s.parse),
      fmtSummary(s.ratio),
      fmt(s.microsPerTrial),
    ]),
    judged: {
      ratio: `${fmt(ratio)}× JSON.parse at 100k; µs/trial 100k ÷ 1k = ${fmt(growth)}`,
      target: `≤ ${TARGET_RATIO}× JSON.parse at 100k, linear 1k→100k`,
      met: fast && linear,
      verdict: `${verdicts.join('; ')}.`,
    },
  };
}
