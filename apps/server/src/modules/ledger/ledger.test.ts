import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../db/schema/index';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { createTestApp, createUser, fund, uniq, type TestApp } from '../../test/harness';
import { createLedgerService, type LedgerService } from './ledger.service';
import { verifyLedger } from './ledger.verify';

let t: TestApp;
let ledger: LedgerService;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  ledger = t.app.ctx.services.ledger;
  db = t.app.ctx.database.db;
});
afterAll(() => t.close());

async function txCountByKey(key: string): Promise<number> {
  const rows = await db
    .select()
    .from(ledgerTransactions)
    .where(sql`${ledgerTransactions.idempotencyKey} = ${key}`);
  return rows.length;
}

describe('ledger.post', () => {
  it('refuses entries that do not sum to zero before touching the database', async () => {
    const untouchable = new Proxy({} as Db, {
      get() {
        throw new Error('the database was touched');
      },
    });
    const isolated = createLedgerService({ db: untouchable });
    const userId = newId();
    await expect(
      isolated.post({
        key: 'k',
        kind: 'deposit',
        bizId: 'b',
        entries: [
          { account: { platform: 'deposits' }, amount: -100n },
          { account: { userId, kind: 'available' }, amount: 99n },
        ],
      }),
    ).rejects.toThrow('Ledger entries must sum to zero (sum -1)');
    await expect(
      isolated.post({ key: 'k', kind: 'deposit', bizId: 'b', entries: [{ account: { userId, kind: 'available' }, amount: 1n }] }),
    ).rejects.toThrow('at least two entries');
    await expect(
      isolated.post({
        key: 'k',
        kind: 'deposit',
        bizId: 'b',
        entries: [
          { account: { platform: 'deposits' }, amount: 0n },
          { account: { userId, kind: 'available' }, amount: 0n },
        ],
      }),
    ).rejects.toThrow('cannot be zero');
  });

  it('replays the same idempotency key without changing anything', async () => {
    const user = await createUser(t);
    const key = `test-replay:${uniq()}`;
    const input = {
      key,
      kind: 'deposit' as const,
      bizId: key,
      entries: [
        { account: { platform: 'deposits' as const }, amount: -2_500n },
        { account: { userId: user.id, kind: 'available' as const }, amount: 2_500n },
      ],
    };
    const first = await ledger.post(input);
    const second = await ledger.post(input);
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ transactionId: first.transactionId, replayed: true });
    expect(await ledger.balances(user.id)).toMatchObject({ available: 2_500n, frozen: 0n });
    expect(await txCountByKey(key)).toBe(1);
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(sql`${ledgerEntries.transactionId} = ${first.transactionId}`);
    expect(entries.map((e) => e.amount).sort()).toEqual([-2_500n, 2_500n]);
  });

  it('refuses a debit beyond the balance with INSUFFICIENT_BALANCE and writes nothing', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '10.00');
    const key = `test-overdraft:${uniq()}`;
    const err = await ledger
      .post({
        key,
        kind: 'purchase',
        bizId: key,
        entries: [
          { account: { userId: user.id, kind: 'available' }, amount: -1_001n },
          { account: { platform: 'fees' }, amount: 1_001n },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).reason).toBe('INSUFFICIENT_BALANCE');
    expect(await ledger.balances(user.id)).toMatchObject({ available: 1_000n, frozen: 0n });
    expect(await txCountByKey(key)).toBe(0);
  });
});

describe('ledger.postBatch', () => {
  it('posts each posting on its own: a short payer is refused alone, a replayed key writes nothing more', async () => {
    const [a, b, seller] = [await createUser(t), await createUser(t), await createUser(t)];
    await fund(t, a.id, '5');
    const done = `batch:${uniq()}`;
    await ledger.post({
      key: done,
      kind: 'purchase',
      bizId: done,
      entries: [
        { account: { userId: a.id, kind: 'available' }, amount: -100n },
        { account: { userId: seller.id, kind: 'available' }, amount: 100n },
      ],
    });
    const item = (key: string, payer: string, amount: bigint) => ({
      key,
      kind: 'purchase' as const,
      bizId: key,
      debit: { userId: payer, amount },
      credits: [
        { account: { userId: seller.id, kind: 'available' as const }, amount: amount - 10n },
        { account: { platform: 'fees' as const }, amount: 10n },
      ],
    });
    const seen: string[][] = [];
    const outcomes = await db.transaction((tx) =>
      ledger.postBatch(
        tx,
        [item(`batch:${uniq()}`, a.id, 300n), item(`batch:${uniq()}`, b.id, 50n), item(done, a.id, 100n)],
        async (o) => {
          seen.push([...o]);
        },
      ),
    );
    expect(outcomes).toEqual(['posted', 'insufficient', 'replayed']);
    expect(seen).toEqual([outcomes]);
    expect((await ledger.balances(a.id)).available).toBe(100n);
    expect((await ledger.balances(b.id)).available).toBe(0n);
    expect((await ledger.balances(seller.id)).available).toBe(100n + 290n);
    expect((await verifyLedger(db)).violations).toEqual([]);
  });

  it('refuses a batch that posts one key twice before touching the database', async () => {
    const untouchable = new Proxy({} as Db, {
      get() {
        throw new Error('the database was touched');
      },
    });
    const isolated = createLedgerService({ db: untouchable });
    const p = {
      key: 'same',
      kind: 'purchase' as const,
      bizId: 'x',
      debit: { userId: 'u', amount: 5n },
      credits: [{ account: { platform: 'fees' as const }, amount: 5n }],
    };
    await expect(isolated.postBatch(untouchable as never, [p, p])).rejects.toThrow('one key twice');
  });
});

describe('freeze and unfreeze', () => {
  it('move points between available and frozen, never below zero', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '100.00');
    const bill = uniq();
    await ledger.freeze(user.id, 3_000n, `test-freeze:${bill}`, bill);
    expect(await ledger.balances(user.id)).toMatchObject({ available: 7_000n, frozen: 3_000n });
    // A replayed freeze changes nothing.
    expect((await ledger.freeze(user.id, 3_000n, `test-freeze:${bill}`, bill)).replayed).toBe(true);
    expect(await ledger.balances(user.id)).toMatchObject({ available: 7_000n, frozen: 3_000n });
    await ledger.unfreeze(user.id, 1_000n, `test-unfreeze:${bill}`, bill);
    expect(await ledger.balances(user.id)).toMatchObject({ available: 8_000n, frozen: 2_000n });
    await expect(ledger.freeze(user.id, 8_001n, `test-freeze2:${bill}`, bill)).rejects.toMatchObject({
      reason: 'INSUFFICIENT_BALANCE',
    });
    await expect(ledger.unfreeze(user.id, 2_001n, `test-unfreeze2:${bill}`, bill)).rejects.toMatchObject({
      reason: 'INSUFFICIENT_BALANCE',
    });
    expect(await ledger.balances(user.id)).toMatchObject({ available: 8_000n, frozen: 2_000n });
  });
});

describe('verifyLedger', () => {
  class Rollback extends Error {}

  /** Runs `tamper` and the verification inside a transaction that is rolled back afterwards. */
  async function verifyTampered(tamper: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<void>) {
    let report: Awaited<ReturnType<typeof verifyLedger>> | undefined;
    await db
      .transaction(async (tx) => {
        await tamper(tx);
        report = await verifyLedger(tx);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
    return report!;
  }

  it('passes on the ledger transactions posted through the service and counts what it checked', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5.00');
    const report = await verifyLedger(db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.counts.transactions).toBeGreaterThan(0);
    expect(report.counts.entries).toBeGreaterThanOrEqual(2 * report.counts.transactions);
    expect(report.counts.userAccounts).toBeGreaterThanOrEqual(2);
  });

  it('reports a stored balance that differs from its entries', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5.00');
    const report = await verifyTampered(async (tx) => {
      await tx.execute(sql`update ledger_accounts set balance = balance + 7 where user_id = ${user.id} and kind = 'available'`);
    });
    expect(report.ok).toBe(false);
    expect(report.violations.join('\n')).toContain(`user ${user.id}, available): stored balance 507 but entries sum to 500`);
  });

  it('reports a transaction whose entries do not sum to zero', async () => {
    const user = await createUser(t);
    const key = `test-unbalanced:${uniq()}`;
    const report = await verifyTampered(async (tx) => {
      const id = newId();
      await tx.insert(ledgerTransactions).values({ id, idempotencyKey: key, kind: 'test', bizId: key });
      const [acc] = await tx
        .select({ id: ledgerAccounts.id })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.userId, user.id), eq(ledgerAccounts.kind, 'frozen')));
      const accountId = acc!.id;
      await tx.insert(ledgerEntries).values([
        { transactionId: id, accountId, amount: 3n },
        { transactionId: id, accountId, amount: -1n },
      ]);
    });
    expect(report.ok).toBe(false);
    const text = report.violations.join('\n');
    expect(text).toContain(`(${key}): 2 entries summing to 2`);
    expect(text).toContain(`user ${user.id}, frozen): stored balance 0 but entries sum to 2`);
  });
});

describe('allUserTotals', () => {
  it('pages every user once, ordered by id, with available + frozen summed', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    await fund(t, a.id, '5.00');
    await fund(t, b.id, '3.21');
    await ledger.freeze(b.id, 100n, `freeze:${uniq()}`, b.id);
    const pages: { userId: string; balance: bigint }[][] = [];
    // One snapshot for the pages and the count (as reserves.service reads them): on PostgreSQL other
    // test files add users to the same database meanwhile.
    const users = await db.transaction(
      async (tx) => {
        for await (const page of ledger.allUserTotals(tx, 2)) pages.push(page);
        return tx
          .select({ userId: ledgerAccounts.userId })
          .from(ledgerAccounts)
          .where(sql`${ledgerAccounts.userId} is not null`);
      },
      { isolationLevel: 'repeatable read' },
    );
    const all = pages.flat();
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages.every((p) => p.length <= 2)).toBe(true);
    const ids = all.map((u) => u.userId);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.length).toBe(new Set(users.map((u) => u.userId)).size);
    expect(all.find((u) => u.userId === a.id)?.balance).toBe(500n);
    expect(all.find((u) => u.userId === b.id)?.balance).toBe(321n); // 221 available + 100 frozen
  });
});
