/**
 * Group commit: many requests settled by one database transaction (or one statement), each request
 * answered with its own outcome after COMMIT (docs/decisions/0033-purchase-hot-path.md; the batch
 * engines of `collection/buy` and `order/pay`, modules/orders/purchase.service.ts).
 *
 * Three pieces, one policy each:
 * - {@link takeBatch}: the keyed queue. Requests with the same key join one group and share its
 *   outcome (a double click, a retry of the same call); a batch holds at most `max` groups, and at
 *   most one group per `exclusive` key (e.g. one order per buyer, so a buyer's debits stay
 *   independent); what does not fit stays queued, in order, for the next batch.
 * - {@link commitSplitting}: split on failure. The batch's work runs under {@link retryTransient};
 *   if it still fails, the batch is split and each group runs alone, so only a faulty group fails.
 * - {@link retryTransient}: the one retry policy. A deadlock or serialization failure
 *   (`isRetryableTxError`, SQLSTATE 40P01 / 40001) rolls the transaction back and it runs again, at
 *   most {@link TRANSIENT_ATTEMPTS} times in all; any other error is thrown at once.
 */
import { isRetryableTxError } from './pg-errors';

/** Attempts in all (the first included) of work that fails on a deadlock or serialization failure. */
export const TRANSIENT_ATTEMPTS = 4;

/**
 * Runs `work`, again after a deadlock or serialization failure, at most {@link TRANSIENT_ATTEMPTS}
 * times in all. `work` must be safe to run again: one database transaction (rolled back when it
 * failed) or one statement.
 * @throws the last error when the attempts are spent, or any other error at once
 */
export async function retryTransient<T>(work: () => Promise<T>, attempts = TRANSIENT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt < attempts && isRetryableTxError(err)) continue;
      throw err;
    }
  }
}

/** A request waiting in a queue: what it asks (`input`) and its promise's settle functions. */
export interface Waiter<I, R> {
  input: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/** The requests of one key in a batch: the first one's input and every waiter sharing its outcome. */
export type Group<I, R> = I & { waiters: Waiter<I, R>[] };

export interface TakeOptions<I> {
  /** Requests with the same key share one outcome. */
  key: (input: I) => string;
  /** Groups per batch at most (>= 1). */
  max: number;
  /** At most one group per value of this key in a batch (optional). */
  exclusive?: (input: I) => string;
}

/**
 * Takes the next batch off `queue` (mutated: what is taken is removed, the rest keeps its order).
 * @returns the batch's groups in queue order (empty when the queue is)
 */
export function takeBatch<I extends object, R>(queue: Waiter<I, R>[], options: TakeOptions<I>): Group<I, R>[] {
  const groups = new Map<string, Group<I, R>>();
  const exclusive = new Set<string>();
  const rest: Waiter<I, R>[] = [];
  for (const w of queue) {
    const key = options.key(w.input);
    const group = groups.get(key);
    if (group) {
      group.waiters.push(w);
      continue;
    }
    const held = options.exclusive?.(w.input);
    if ((held !== undefined && exclusive.has(held)) || groups.size >= Math.max(1, options.max)) {
      rest.push(w);
      continue;
    }
    groups.set(key, { ...w.input, waiters: [w] });
    if (held !== undefined) exclusive.add(held);
  }
  queue.splice(0, queue.length, ...rest);
  return [...groups.values()];
}

/**
 * Commits `groups` together: `commit(groups)` under {@link retryTransient}, then `answer(groups,
 * result)` (after COMMIT; never retried). When the commit fails for good, a batch of several groups
 * is split and each group commits alone (sequentially, in order); a lone group's failure goes to
 * `fail(group, err)`. Resolves when every group was answered or failed; never rejects unless
 * `answer` or `fail` throws.
 */
export async function commitSplitting<G, T>(
  groups: G[],
  commit: (groups: G[]) => Promise<T>,
  answer: (groups: G[], result: T) => void | Promise<void>,
  fail: (group: G, err: unknown) => void,
): Promise<void> {
  let result: T;
  try {
    result = await retryTransient(() => commit(groups));
  } catch (err) {
    if (groups.length > 1) {
      for (const group of groups) await commitSplitting([group], commit, answer, fail);
    } else if (groups[0] !== undefined) {
      fail(groups[0], err);
    }
    return;
  }
  await answer(groups, result);
}

/** Rejects every waiter of `group` with `err` (the usual `fail` of {@link commitSplitting}). */
export function rejectGroup<I, R>(group: Group<I, R>, err: unknown): void {
  for (const w of group.waiters) w.reject(err);
}

/** What {@link batchQueue} needs: the batch's key rules, its one commit, and how answers are shared out. */
export interface BatchQueueOptions<I extends object, R, T> extends TakeOptions<I> {
  /** Settles a batch: one statement or one transaction (it may run again, see {@link retryTransient}). */
  commit: (groups: Group<I, R>[]) => Promise<T>;
  /** Resolves the waiters of every group from the committed result (after COMMIT; never retried). */
  answer: (groups: Group<I, R>[], result: T) => void;
}

/**
 * A keyed queue drained one batch at a time: requests that arrive while a batch commits form the
 * next one, so a single caller waits one round trip and many callers share one commit. Each batch
 * is taken with {@link takeBatch} and committed with {@link commitSplitting} (a batch that fails
 * for good is split, so only a faulty group fails; its waiters are rejected with the error).
 * @returns `submit(input)`: resolves with what `answer` gives this request, or rejects with the
 *   error of its group's commit
 */
export function batchQueue<I extends object, R, T>(options: BatchQueueOptions<I, R, T>): (input: I) => Promise<R> {
  const queue: Waiter<I, R>[] = [];
  let draining = false;
  async function drain(): Promise<void> {
    if (draining) return;
    draining = true;
    try {
      while (queue.length) await commitSplitting(takeBatch(queue, options), options.commit, options.answer, rejectGroup);
    } finally {
      draining = false;
    }
  }
  return (input) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      void drain();
    });
}
