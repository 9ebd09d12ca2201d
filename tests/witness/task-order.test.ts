// wire.summary-task-order: the published EvalSummary lists its tasks in suite order, a SHOULD.

import { describe, expect, it } from 'vitest';
import { judgeEvalRun } from '../../lib/eval-gate-witness.ts';
import { GATED, gatedObservation } from './build.ts';
import { judgedBy } from './mutate.ts';
import type { Draft } from './build.ts';

const ordered = (mutate: (d: Draft) => void = () => undefined) =>
  judgedBy('wire.summary-task-order', GATED, mutate);

const tasksOf = (d: Draft): unknown[] => (d.summary as { tasks: unknown[] }).tasks;
const suiteIds = GATED.suite.tasks.map((t) => t.taskId);

describe('wire.summary-task-order', () => {
  it('tasks listed in suite order hold, saying how many were compared', () => {
    const { failing, own } = ordered();
    expect(failing).toEqual([]);
    expect(own).toEqual([`the summary lists its ${suiteIds.length} tasks in suite order`]);
  });

  it('tasks listed in reverse order fail the SHOULD alone, naming the pair out of place', () => {
    const { failing, said } = ordered((d) => tasksOf(d).reverse());
    expect(failing).toEqual(['wire.summary-task-order']);
    const [first, second] = [suiteIds[suiteIds.length - 1], suiteIds[suiteIds.length - 2]];
    expect(said).toEqual([
      `the summary's tasks SHOULD follow the suite's order; the string "${second}" is listed after the string "${first}", which the suite puts later`,
    ]);
  });

  it('a summary listing one of the suite tasks shows no order and makes no finding', () => {
    const { own } = ordered((d) => tasksOf(d).splice(1));
    expect(own).toEqual([]);
  });
});

describe('a record written before the current record version', () => {
  it('is judged as it was: no task order, and a missing trials block is not a failure', () => {
    const draft = gatedObservation();
    (draft.summary as { tasks: unknown[] }).tasks.reverse();
    delete (draft.events.find((e) => e.type === 'eval.started')?.payload as Record<string, unknown>)
      .trials;
    const findings = judgeEvalRun(GATED, draft);
    expect(findings.filter((f) => f.rule === 'wire.summary-task-order')).toEqual([]);
    expect(findings.find((f) => f.rule === 'events.started-trials')).toMatchObject({
      ok: true,
      message: 'eval.started carries no trials block',
    });
  });
});
