import { AsyncLocalStorage } from 'node:async_hooks';
import { StoreUnavailable } from './ports';

/** The store time left to one request: its deadline, while the request is answered. */
interface Budget {
  deadline: number;
  open: boolean;
}

const budgets = new AsyncLocalStorage<Budget>();

/**
 * Runs a request's work under one store budget: every store call it makes, retries included,
 * ends by `ms` from now, so its slowest 503 comes within the budget. Work the request started
 * that goes on after it (a timer, a poll shared with other requests) is not held to it.
 */
export async function withStoreBudget<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const budget = { deadline: Date.now() + ms, open: true };
  try {
    return await budgets.run(budget, work);
  } finally {
    budget.open = false;
  }
}

/** What is left of the current request's store budget; undefined outside a request. */
export function budgetLeftMs(): number | undefined {
  const budget = budgets.getStore();
  return budget?.open ? budget.deadline - Date.now() : undefined;
}

/**
 * A store call held to the request's budget: past it the caller gets StoreUnavailable while the
 * call, which the driver cannot cancel, runs on unanswered (its rejection is handled here).
 */
export function withinBudget<T>(operation: string, call: () => Promise<T>): Promise<T> {
  const left = budgetLeftMs();
  if (left === undefined) return call();
  if (left <= 0) return Promise.reject(new StoreUnavailable(operation));
  let timer: NodeJS.Timeout | undefined;
  const spent = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailable(operation, { cause: new Error(`the request's store budget ran out`) })),
      left,
    );
  });
  return Promise.race([call(), spent]).finally(() => clearTimeout(timer));
}
