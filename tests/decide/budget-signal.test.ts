// The run budget's parts on their own, with no host: the timer that spends it (on a fake clock),
// the reasons it writes, and `withinBudget`, which settles a leg or case with its own result or
// with the budget's cut, whichever comes first. tests/decide/run-budget.test.ts drives the same
// budget through whole runs.

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  budgetSpent,
  cutByBudget,
  notRun,
  notRunWhy,
  startBudget,
  withinBudget,
  type RunBudget,
} from '../../lib/decide/run-budget.ts';

afterEach(() => {
  vi.useRealTimers();
});

function spentBudget(label = '5m'): RunBudget {
  const controller = new AbortController();
  controller.abort();
  return { label, signal: controller.signal };
}

describe('the budget timer', () => {
  it('is spent when its time has passed, not a millisecond before, and names itself', () => {
    vi.useFakeTimers();
    const { budget, stop } = startBudget(90_000);
    expect(budget.label).toBe('1m30s');
    vi.advanceTimersByTime(89_999);
    expect(budget.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(budget.signal.aborted).toBe(true);
    stop();
  });

  it('stopped before its time, it is never spent', () => {
    vi.useFakeTimers();
    const { budget, stop } = startBudget(1_000);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(budget.signal.aborted).toBe(false);
  });
});

describe('the reasons it writes', () => {
  it('a cut leg or case names the budget and which it was', () => {
    const budget = spentBudget('30m');
    expect(budgetSpent(budget)).toBe('the run budget of 30m was spent');
    expect(cutByBudget(budget, 'leg')).toMatchObject({
      disposition: 'blocked',
      reason: 'the run budget of 30m was spent before this leg finished',
    });
    expect(cutByBudget(budget, 'case').reason).toBe(
      'the run budget of 30m was spent before this case finished',
    );
  });

  it('a case never started is blocked as not run, and only such a reason reads as not run', () => {
    const decision = notRun('the pack stopped');
    expect(decision.disposition).toBe('blocked');
    expect(decision.reason).toBe('not run: the pack stopped');
    expect(notRunWhy(decision.reason)).toBe('the pack stopped');
    expect(notRunWhy('run not terminal within 5000 ms')).toBeUndefined();
    expect(notRunWhy('a reason that says not run: later')).toBeUndefined();
    expect(notRunWhy(undefined)).toBeUndefined();
  });
});

describe('withinBudget', () => {
  const cut = (budget: RunBudget): string => `cut by ${budget.label}`;

  it('without a budget, the work is the answer', async () => {
    await expect(withinBudget(Promise.resolve('done'), undefined, cut)).resolves.toBe('done');
  });

  it('a budget already spent cuts the work at once, and its later failure is dropped', async () => {
    const work = Promise.reject(new Error('the host client was closed'));
    await expect(withinBudget(work, spentBudget(), cut)).resolves.toBe('cut by 5m');
  });

  it('work that ends first is its own answer, and the budget spent later changes nothing', async () => {
    const controller = new AbortController();
    const budget = { label: '1m', signal: controller.signal };
    const answer = await withinBudget(Promise.resolve('done'), budget, cut);
    controller.abort();
    expect(answer).toBe('done');
  });

  it('work that fails first fails', async () => {
    const controller = new AbortController();
    const budget = { label: '1m', signal: controller.signal };
    await expect(withinBudget(Promise.reject(new Error('lost')), budget, cut)).rejects.toThrow(
      'lost',
    );
  });

  it('a budget spent while the work is pending cuts it, whatever the work does after', async () => {
    const controller = new AbortController();
    const budget = { label: '2m', signal: controller.signal };
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const answer = withinBudget(work, budget, cut);
    controller.abort();
    finish('too late');
    await expect(answer).resolves.toBe('cut by 2m');
  });
});
