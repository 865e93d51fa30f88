/**
 * Ledger concurrency on real PostgreSQL (PGlite runs one connection, so contention is only real
 * here). Skipped, with a message, when DATABASE_URL is not a PostgreSQL URL; CI always sets it.
 */
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import * as schema from '../../db/schema/index';
import { createTestApp, createUser, fund, uniq, type TestApp } from '../../test/harness';
import { createLedgerService } from './ledger.service';
import { verifyLedger } from './ledger.verify';

const url = process.env.DATABASE_URL;
const onPostgres = !!url && /^postgres(ql)?:\/\//.test(url);
if (!onPostgres)
  console.warn('ledger.pg.test.ts: skipped — set DATABASE_URL=postgres://... to run the PostgreSQL concurrency tests');

describe.skipIf(!onPostgres)('ledger on PostgreSQL under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('200 concurrent debits of 10 points from 1,000 points: exactly 100 succeed, the balance ends at 0', async () => {
    const ledger = t.app.ctx.services.ledger;
    const user = await createUser(t);
    await fund(t, user.id, '1000.00');
    const run = uniq();
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        ledger.post({
          key: `test-spend:${run}:${i}`,
          kind: 'purchase',
          bizId: `${run}:${i}`,
          entries: [
            { account: { userId: user.id, kind: 'available' }, amount: -1_000n },
            { account: { platform: 'fees' }, amount: 1_000n },
          ],
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(100);
    expect(failed).toHaveLength(100);
    expect(new Set(failed.map((f) => (f.reason as { reason?: string }).reason))).toEqual(new Set(['INSUFFICIENT_BALANCE']));
    expect(await ledger.balances(user.id)).toMatchObject({ available: 0n, frozen: 0n });
    const [row] = await t.app.ctx.database.db
      .select({ n: sql<string>`count(*)::text` })
      .from(schema.ledgerTransactions)
      .where(sql`${schema.ledgerTransactions.idempotencyKey} like ${`test-spend:${run}:%`}`);
    expect(row?.n).toBe('100');
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
  });

  it('the same idempotency key posted from 50 concurrent connections yields one transaction', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 50 });
    try {
      const db = drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Db;
      const ledger = createLedgerService({ db });
      const user = await createUser(t);
      const key = `test-same-key:${uniq()}`;
      // Hold 50 connections open at once so that the 50 postings really run on 50 connections.
      const clients = await Promise.all(Array.from({ length: 50 }, () => pool.connect()));
      expect(pool.totalCount).toBe(50);
      clients.forEach((c) => c.release());
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          ledger.post({
            key,
            kind: 'deposit',
            bizId: key,
            entries: [
              { account: { platform: 'deposits' }, amount: -700n },
              { account: { userId: user.id, kind: 'available' }, amount: 700n },
            ],
          }),
        ),
      );
      expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(await ledger.balances(user.id)).toMatchObject({ available: 700n, frozen: 0n });
      const txs = await db.select().from(schema.ledgerTransactions).where(eq(schema.ledgerTransactions.idempotencyKey, key));
      expect(txs).toHaveLength(1);
      const entries = await db
        .select()
        .from(schema.ledgerEntries)
        .where(and(eq(schema.ledgerEntries.transactionId, txs[0]!.id)));
      expect(entries).toHaveLength(2);
    } finally {
      await pool.end();
    }
  });

  it('a batch whose key a concurrent transaction posts first fails whole, writing nothing, and is a replay when tried again', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    try {
      const db = drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Db;
      const ledger = createLedgerService({ db });
      const [a, b, seller] = [await createUser(t), await createUser(t), await createUser(t)];
      await fund(t, a.id, '10');
      await fund(t, b.id, '10');
      const item = (key: string, payer: string) => ({
        key,
        kind: 'purchase' as const,
        bizId: key,
        debit: { userId: payer, amount: 100n },
        credits: [{ account: { userId: seller.id, kind: 'available' as const }, amount: 100n }],
      });
      const [shared, own] = [`test-race:${uniq()}`, `test-race:${uniq()}`];
      // The first transaction posts `shared` and stays open; the second batch, holding `shared` and
      // its own key, reads no such key yet, so it debits and then waits on the key's unique index.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let postedFirst!: () => void;
      const firstPosted = new Promise<void>((r) => (postedFirst = r));
      const first = db.transaction(async (tx) => {
        await ledger.postBatch(tx, [item(shared, a.id)]);
        postedFirst();
        await held;
      });
      await firstPosted;
      const second = db.transaction((tx) => ledger.postBatch(tx, [item(own, b.id), item(shared, a.id)]));
      await new Promise((r) => setTimeout(r, 300));
      release();
      await first;
      await expect(second).rejects.toMatchObject({ code: '23505' });
      expect((await ledger.balances(a.id)).available).toBe(900n);
      expect((await ledger.balances(b.id)).available).toBe(1_000n);
      expect((await ledger.balances(seller.id)).available).toBe(100n);

      const again = await db.transaction((tx) => ledger.postBatch(tx, [item(own, b.id), item(shared, a.id)]));
      expect(again).toEqual(['posted', 'replayed']);
      expect((await ledger.balances(a.id)).available).toBe(900n);
      expect((await ledger.balances(b.id)).available).toBe(900n);
      expect((await ledger.balances(seller.id)).available).toBe(200n);
      expect((await verifyLedger(db)).violations).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
