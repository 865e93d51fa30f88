/** lib/group-commit.ts: the keyed queue, split on failure and the one retry policy. */
import { describe, expect, it } from 'vitest';
import {
  batchQueue,
  commitSplitting,
  rejectGroup,
  retryTransient,
  takeBatch,
  TRANSIENT_ATTEMPTS,
  type Group,
  type Waiter,
} from './group-commit';

interface Ask {
  buyer: string;
  order: string;
}

function waiter(buyer: string, order: string, log: string[] = []): Waiter<Ask, string> {
  return {
    input: { buyer, order },
    resolve: (r) => log.push(`${buyer}/${order}=${r}`),
    reject: (e) => log.push(`${buyer}/${order}!${String(e)}`),
  };
}

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('takeBatch', () => {
  it('joins requests of one key, takes at most max groups and one per exclusive key, and leaves the rest in order', () => {
    const queue = [waiter('a', '1'), waiter('a', '1'), waiter('a', '2'), waiter('b', '3'), waiter('c', '4'), waiter('d', '5')];
    const batch = takeBatch(queue, { key: (x) => `${x.buyer}/${x.order}`, max: 3, exclusive: (x) => x.buyer });
    expect(batch.map((g) => [g.buyer, g.order, g.waiters.length])).toEqual([
      ['a', '1', 2],
      ['b', '3', 1],
      ['c', '4', 1],
    ]);
    // a/2 waits (a second order of buyer a), d/5 waits (the batch is full).
    expect(queue.map((w) => `${w.input.buyer}/${w.input.order}`)).toEqual(['a/2', 'd/5']);
    expect(takeBatch(queue, { key: (x) => x.order, max: 10 }).map((g) => g.order)).toEqual(['2', '5']);
    expect(queue).toEqual([]);
  });
});

describe('retryTransient', () => {
  it('runs again after a deadlock, at most TRANSIENT_ATTEMPTS times in all, then throws the last error', async () => {
    let runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw deadlock();
      }),
    ).rejects.toThrow('deadlock detected');
    expect(runs).toBe(TRANSIENT_ATTEMPTS);

    runs = 0;
    await expect(
      retryTransient(async () => {
        if (++runs < 3) throw deadlock();
        return 'done';
      }),
    ).resolves.toBe('done');
    expect(runs).toBe(3);
  });

  it('throws any other error at once', async () => {
    let runs = 0;
    await expect(
      retryTransient(async () => {
        runs++;
        throw new Error('unique violation');
      }),
    ).rejects.toThrow('unique violation');
    expect(runs).toBe(1);
  });
});

describe('commitSplitting', () => {
  it('answers a batch that commits, once, after the commit', async () => {
    const log: string[] = [];
    const groups = takeBatch([waiter('a', '1', log), waiter('b', '2', log)], { key: (x) => x.order, max: 10 });
    let commits = 0;
    await commitSplitting(
      groups,
      async (batch) => {
        commits++;
        return batch.map((g) => `paid ${g.order}`);
      },
      (batch, results) => batch.forEach((g, i) => g.waiters.forEach((w) => w.resolve(results[i]!))),
      rejectGroup,
    );
    expect(commits).toBe(1);
    expect(log).toEqual(['a/1=paid 1', 'b/2=paid 2']);
  });

  it('splits a batch that fails for good: only the faulty group fails, the others commit alone', async () => {
    const log: string[] = [];
    const groups = takeBatch([waiter('a', '1', log), waiter('b', 'bad', log), waiter('c', '3', log)], {
      key: (x) => x.order,
      max: 10,
    });
    const committed: string[][] = [];
    await commitSplitting(
      groups,
      async (batch: Group<Ask, string>[]) => {
        if (batch.some((g) => g.order === 'bad')) throw new Error('check violation');
        committed.push(batch.map((g) => g.order));
        return batch.map((g) => `paid ${g.order}`);
      },
      (batch, results) => batch.forEach((g, i) => g.waiters.forEach((w) => w.resolve(results[i]!))),
      rejectGroup,
    );
    expect(committed).toEqual([['1'], ['3']]);
    expect(log).toEqual(['a/1=paid 1', 'b/bad!Error: check violation', 'c/3=paid 3']);
  });

  it('retries a deadlocked batch whole before splitting it', async () => {
    const log: string[] = [];
    const groups = takeBatch([waiter('a', '1', log), waiter('b', '2', log)], { key: (x) => x.order, max: 10 });
    const sizes: number[] = [];
    await commitSplitting(
      groups,
      async (batch) => {
        sizes.push(batch.length);
        if (sizes.length === 1) throw deadlock();
        return batch.map(() => 'ok');
      },
      (batch, results) => batch.forEach((g, i) => g.waiters.forEach((w) => w.resolve(results[i]!))),
      rejectGroup,
    );
    expect(sizes).toEqual([2, 2]);
    expect(log).toEqual(['a/1=ok', 'b/2=ok']);
  });
});

describe('batchQueue', () => {
  it('commits what arrives while a batch commits as the next batch, repeats of a key joining one group', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    let gate: Promise<void> = new Promise((r) => (release = r));
    const submit = batchQueue<Ask, string, string[]>({
      key: (x) => x.order,
      max: 10,
      commit: async (groups) => {
        batches.push(groups.map((g) => `${g.order}x${g.waiters.length}`));
        if (batches.length === 1) await gate;
        return groups.map((g) => `paid ${g.order}`);
      },
      answer: (groups, results) => groups.forEach((g, i) => g.waiters.forEach((w) => w.resolve(results[i]!))),
    });
    const first = submit({ buyer: 'a', order: '1' });
    // The first batch is out: these three wait for it, then go together.
    const rest = [submit({ buyer: 'b', order: '2' }), submit({ buyer: 'b', order: '2' }), submit({ buyer: 'c', order: '3' })];
    await Promise.resolve();
    expect(batches).toEqual([['1x1']]);
    release();
    gate = Promise.resolve();
    expect(await Promise.all([first, ...rest])).toEqual(['paid 1', 'paid 2', 'paid 2', 'paid 3']);
    expect(batches).toEqual([['1x1'], ['2x2', '3x1']]);
  });

  it('rejects only the requests of the group whose commit fails for good', async () => {
    const submit = batchQueue<Ask, string, string[]>({
      key: (x) => x.order,
      max: 10,
      commit: async (groups) => {
        if (groups.some((g) => g.order === 'bad')) throw new Error('check violation');
        return groups.map((g) => `paid ${g.order}`);
      },
      answer: (groups, results) => groups.forEach((g, i) => g.waiters.forEach((w) => w.resolve(results[i]!))),
    });
    const outcomes = await Promise.allSettled([
      submit({ buyer: 'a', order: '1' }),
      submit({ buyer: 'b', order: 'bad' }),
      submit({ buyer: 'c', order: '3' }),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : String(o.reason)))).toEqual([
      'paid 1',
      'Error: check violation',
      'paid 3',
    ]);
  });
});
