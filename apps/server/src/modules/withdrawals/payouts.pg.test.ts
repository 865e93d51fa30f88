/**
 * The payout worker on PostgreSQL with two instances on one database (docs/payments.md, "Payout
 * worker"): drains running at once on both send each payout exactly once and settle it once; a bill
 * confirmed on one instance wakes the other's worker through NOTIFY, with no tick in between.
 *
 * PostgreSQL only (PGlite belongs to one process): skipped, with a message, without DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerTransactions } from '../../db/schema/index';
import { createTestApp, createUser, fund, md5, onPostgres, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { createWorkerRunner } from '../../worker-runner';
import { verifyLedger } from '../ledger/ledger.verify';

if (!onPostgres) console.warn('payouts.pg.test.ts: skipped — two instances need a shared PostgreSQL database (set DATABASE_URL)');

const uc = (p: string) => `/api/uc/v1/account${p}`;
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** Polls `probe` (every 20 ms, up to 10 s) until it answers true. */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached within 10 s');
}

describe.skipIf(!onPostgres)('payouts on two instances, one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  async function confirmedOn(t: TestApp, user: TestUser): Promise<string> {
    const created = await t.call(
      uc('/withdraw/create'),
      { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: '1000', address: TRON, memo: '' },
      user.token,
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(10000);
    const id = created.body.data.bill.id as string;
    const res = await t.call(uc('/withdraw/confirm'), { bill_id: id, password: md5(PASSWORD) }, user.token);
    expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
    return id;
  }
  const statusOf = async (t: TestApp, user: TestUser, id: string) =>
    (await t.call(uc('/withdraw/bill/detail'), { user_id: user.id, bill_id: id }, user.token)).body.data.bill.status as string;

  it('drains running at once on both instances send each payout once and settle it once', async () => {
    const user = await createUser(a);
    await fund(a, user.id, String(1000 * 150));
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) ids.push(await confirmedOn(i % 2 ? a : b, user));
    const sends = new Map<string, number>();
    const count = (req: { payoutId: string }) => void sends.set(req.payoutId, (sends.get(req.payoutId) ?? 0) + 1);
    const spies = [a, b].map((t) => {
      const provider = t.app.ctx.services.provider;
      const real = provider.sendPayout.bind(provider);
      return vi.spyOn(provider, 'sendPayout').mockImplementation(async (req) => {
        count(req);
        return real(req);
      });
    });
    try {
      const runs = await Promise.all([
        a.app.ctx.services.withdrawals.drainPayouts(),
        b.app.ctx.services.withdrawals.drainPayouts(),
        a.app.ctx.services.withdrawals.drainPayouts(),
        b.app.ctx.services.withdrawals.drainPayouts(),
      ]);
      // Every instance took part (150 bills are more than one batch of 128).
      expect(runs.reduce((n, r) => n + r.succeeded, 0)).toBeGreaterThanOrEqual(150);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    for (const id of ids) {
      expect(sends.get(id), id).toBe(1);
      expect(await statusOf(a, user, id)).toBe('WithdrawStatusSuccess');
    }
    const settles = await a.app.ctx.database.db
      .select({ key: ledgerTransactions.idempotencyKey })
      .from(ledgerTransactions)
      .where(like(ledgerTransactions.idempotencyKey, 'withdraw-settle:%'));
    for (const id of ids) expect(settles.filter((s) => s.key === `withdraw-settle:${id}`)).toHaveLength(1);
    expect((await verifyLedger(a.app.ctx.database.db)).violations).toEqual([]);
  });

  it("a bill confirmed on one instance wakes the other's worker through NOTIFY, before any tick", async () => {
    const payouts = b.app.ctx.workers.find((w) => w.name === 'payouts')!;
    // Only b runs a worker, with an interval of an hour: only the notification can pay the bill in time.
    const runner = createWorkerRunner([{ ...payouts, intervalMs: 3_600_000 }], b.app.log);
    runner.start();
    try {
      // b's LISTEN connection holds before the confirmation on a.
      await until(async () => {
        const rows = (await a.app.ctx.database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = 'LISTEN coffer_payouts'`,
        )) as unknown as { rows: { n: number }[] };
        return (rows.rows[0]?.n ?? 0) >= 1;
      });
      const user = await createUser(a);
      await fund(a, user.id, '3000');
      const id = await confirmedOn(a, user);
      await until(async () => (await statusOf(a, user, id)) === 'WithdrawStatusSuccess');
    } finally {
      await runner.stop();
    }
  });
});
