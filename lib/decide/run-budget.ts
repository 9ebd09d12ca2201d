// The run budget: how long a whole run may take. When it is spent, every leg and generated case
// not yet decided is blocked with a reason naming the budget, and a case that never started is
// recorded as not run: what the suite did not see is never a verdict. The budget is a signal, so
// the engine starts it from a timer and a test spends it on an event of its choosing.

import { formatDuration } from '../env.ts';
import { blocked, type Decision } from './decide.ts';

export interface RunBudget {
  /** The budget as a reason names it: `30m`, `1h30m`. */
  readonly label: string;
  /** Aborted when the budget is spent. */
  readonly signal: AbortSignal;
}

/** What a reason says of a case the pack never started: `not run: <why>`. */
export const NOT_RUN = 'not run: ';

/** A case the pack did not start; blocked, since the suite, not the host, left it undecided. */
export function notRun(why: string): Decision {
  return blocked(`${NOT_RUN}${why}`);
}

/** Why a recorded reason says its case was not run, or undefined for a case that ran. */
export function notRunWhy(reason: string | undefined): string | undefined {
  return reason?.startsWith(NOT_RUN) === true ? reason.slice(NOT_RUN.length) : undefined;
}

export function budgetSpent(budget: RunBudget): string {
  return `the run budget of ${budget.label} was spent`;
}

/** The budget for a run of `ms`, spent by a timer; `stop` clears the timer once the run ends. */
export function startBudget(ms: number): { readonly budget: RunBudget; stop(): void } {
  const spent = new AbortController();
  const timer = setTimeout(() => spent.abort(), ms);
  // The budget never holds a process open on its own: the run it bounds does.
  timer.unref();
  return {
    budget: { label: formatDuration(ms), signal: spent.signal },
    stop: () => clearTimeout(timer),
  };
}

/** The decision of a leg or case (`what`) the spent budget cut short. */
export function cutByBudget(budget: RunBudget, what: 'leg' | 'case'): Decision {
  return blocked(`${budgetSpent(budget)} before this ${what} finished`);
}

/**
 * `work`'s result, or `cut(budget)` when the budget is spent first. The work left behind is not
 * awaited: the engine closes the host client when the budget is spent, which ends its requests,
 * and its ending is dropped.
 */
export function withinBudget<T>(
  work: Promise<T>,
  budget: RunBudget | undefined,
  cut: (budget: RunBudget) => T,
): Promise<T> {
  if (budget === undefined) return work;
  if (budget.signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(cut(budget));
  }
  return new Promise<T>((resolve, reject) => {
    const onSpent = (): void => {
      work.catch(() => undefined);
      resolve(cut(budget));
    };
    budget.signal.addEventListener('abort', onSpent, { once: true });
    work.then(
      (value) => {
        budget.signal.removeEventListener('abort', onSpent);
        resolve(value);
      },
      (error: unknown) => {
        budget.signal.removeEventListener('abort', onSpent);
        reject(error);
      },
    );
  });
}
