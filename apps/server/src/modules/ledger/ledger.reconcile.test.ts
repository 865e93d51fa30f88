/**
 * Reconciliation (issue 38, ledger.reconcile.ts) through the real app: clean flows (a held sale, a
 * refund inside the hold, a cleared sale, a refund after clearing, a top-up, a settled and a refunded
 * cash-out) reconcile; then each rule is broken on purpose with raw SQL inside a transaction that is
 * rolled back (so the database stays sound for the next test) and the violation must be reported.
 * On PostgreSQL the file runs on a scratch database of its own, so its counts see only its rows.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client';
import { createTestApp, createUser, fund, md5, PASSWORD, topUp, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger, type LedgerVerifyReport } from './ledger.verify';

let t: TestApp;
let scratch: ScratchDatabase | undefined;

const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EVM_DEAD = '0x000000000000000000000000000000000000dEaD';

interface World {
  seller: TestUser;
  buyer: TestUser;
  /** Paid, proceeds held in the seller's pending account. */
  held: string;
  /** Paid, then cleared by the clearance job. */
  cleared: string;
  /** Refunded while held. */
  refundedHeld: string;
  /** Refunded after clearing. */
  refundedCleared: string;
  /** The buyer's pending order (bought, not paid). */
  pending: string;
  depositBill: string;
  settledBill: string;
  refundedBill: string;
  /** A confirmable cash-out never confirmed (pending). */
  openBill: string;
}
let w: World;

class Rollback extends Error {}

/** Runs `mutate` and verifyLedger in one transaction, then rolls it back. */
async function corrupted(mutate: (tx: Tx) => Promise<unknown>): Promise<LedgerVerifyReport> {
  let report: LedgerVerifyReport | undefined;
  await t.app.ctx.database.db
    .transaction(async (tx) => {
      await mutate(tx);
      report = await verifyLedger(tx);
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return report!;
}

const expectViolation = (report: LedgerVerifyReport, ...patterns: RegExp[]) => {
  expect(report.ok).toBe(false);
  for (const p of patterns)
    expect(
      report.violations.some((v) => p.test(v)),
      `${p} in\n${report.violations.join('\n')}`,
    ).toBe(true);
};

async function order(buyer: TestUser, collectionId: string, pay = true): Promise<string> {
  const o = await ok(t, '/sl/v1/collection/buy', { collection_id: collectionId }, buyer.token);
  if (pay)
    await ok(t, '/api/uc/v1/account/order/pay', { order_id: o.id, password: md5(PASSWORD), amount: o.amount }, buyer.token);
  return o.id as string;
}

async function cashOut(user: TestUser, body: Record<string, unknown>, confirm = true): Promise<string> {
  const created = await ok(
    t,
    '/api/uc/v1/account/withdraw/create',
    { user_id: user.id, currency: 'usdttrc20', network: 'TRX', amount: '2500', address: TRON, memo: '', ...body },
    user.token,
  );
  if (confirm)
    await ok(t, '/api/uc/v1/account/withdraw/confirm', { bill_id: created.bill.id, password: md5(PASSWORD) }, user.token);
  return created.bill.id as string;
}

beforeAll(async () => {
  scratch = await createScratchDatabase('coffer_reconcile');
  t = await createTestApp({ PLATFORM_FEE_BPS: '1000', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  const seller = await createUser(t);
  const buyer = await createUser(t);
  await fund(t, buyer.id, '1000');
  await fund(t, seller.id, '100');
  const cs = [];
  for (let i = 0; i < 5; i++) cs.push(await publishedCollection(t, seller, 20 + i, `Pack ${i}`));
  const held = await order(buyer, cs[0]!.id);
  const cleared = await order(buyer, cs[1]!.id);
  const refundedHeld = await order(buyer, cs[2]!.id);
  const refundedCleared = await order(buyer, cs[3]!.id);
  const pending = await order(buyer, cs[4]!.id, false);
  const db = t.app.ctx.database.db;
  await db.execute(sql`update orders set clears_at = paid_at where id in (${cleared}, ${refundedCleared})`);
  expect(await t.app.ctx.services.clearance.clearDue()).toBe(2);
  await ok(t, '/api/uc/v1/account/order/refund', { order_id: refundedHeld }, seller.token);
  await ok(t, '/api/uc/v1/account/order/refund', { order_id: refundedCleared }, seller.token);

  const depositor = await createUser(t);
  const bill = await topUp(t, depositor, '6000');
  const openBill = await cashOut(depositor, {}, false);
  const settledBill = await cashOut(depositor, {});
  const refundedBill = await cashOut(depositor, { currency: 'usdterc20', network: 'ETH', address: EVM_DEAD, amount: '2000' });
  for (let i = 0; i < 10; i++) if ((await t.app.ctx.services.withdrawals.runPayouts(50)).claimed === 0) break;
  w = {
    seller,
    buyer,
    held,
    cleared,
    refundedHeld,
    refundedCleared,
    pending,
    depositBill: bill.id as string,
    settledBill,
    refundedBill,
    openBill,
  };
}, 120_000);
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

describe('verifyLedger reconciliation', () => {
  it('reconciles clean flows: held, cleared and refunded sales, a top-up, settled and refunded cash-outs', async () => {
    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.skipped).toEqual([]);
    if (scratch) expect(report.counts).toMatchObject({ orders: 5, depositBills: 1, withdrawBills: 3 });
    const statuses = await t.app.ctx.database.db.execute(
      sql`select id, status from withdraw_bills where id in (${w.settledBill}, ${w.refundedBill}, ${w.openBill}) order by status`,
    );
    expect((statuses as unknown as { rows: { status: string }[] }).rows.map((r) => r.status)).toEqual([
      'WithdrawStatusPending',
      'WithdrawStatusRefunded',
      'WithdrawStatusSuccess',
    ]);
  });

  it('purchase: a paid order without its purchase transaction', async () => {
    const report = await corrupted(async (tx) => {
      await tx.execute(
        sql`delete from ledger_entries where transaction_id in (select id from ledger_transactions where idempotency_key = ${`purchase:${w.held}`})`,
      );
      await tx.execute(sql`delete from ledger_transactions where idempotency_key = ${`purchase:${w.held}`}`);
    });
    expectViolation(
      report,
      new RegExp(`^purchase: transaction purchase:${w.held} \\(OrderStatusPaid, 20 points, fee 200\\): missing$`),
    );
  });

  it('purchase: a pending order with a purchase transaction (flipped status, and a stray posting)', async () => {
    const flipped = await corrupted((tx) =>
      tx.execute(sql`update orders set status = 'OrderStatusPending' where id = ${w.held}`),
    );
    expectViolation(flipped, new RegExp(`^purchase: transaction purchase:${w.held} \\(OrderStatusPending.*not expected`));
    // The held sale no longer counts, so the seller's pending balance is off too.
    expectViolation(flipped, new RegExp(`^pending of user ${w.seller.id}: balance 1800 but 0 held sale\\(s\\) worth 0$`));

    const stray = await corrupted(async (tx) => {
      await t.app.ctx.services.ledger.post(
        {
          key: `purchase:${w.pending}`,
          kind: 'purchase',
          bizId: w.pending,
          entries: [
            { account: { userId: w.buyer.id, kind: 'available' }, amount: -2400n },
            { account: { userId: w.seller.id, kind: 'available' }, amount: 2400n },
          ],
        },
        tx,
      );
    });
    expectViolation(
      stray,
      new RegExp(`^purchase: transaction purchase:${w.pending} \\(OrderStatusPending, 24 points.*not expected \\(it moves`),
    );
    // Everything else still balances: the stray posting is the only finding.
    expect(stray.violations).toHaveLength(1);
  });

  it('purchase: entries that moved another amount, or to the wrong account', async () => {
    const report = await corrupted(async (tx) => {
      // The buyer paid 1 point less and the seller got 1 point less: still balanced, still non-negative.
      await tx.execute(
        sql`update ledger_entries e set amount = e.amount + 100 from ledger_accounts a, ledger_transactions x
            where a.id = e.account_id and x.id = e.transaction_id and x.idempotency_key = ${`purchase:${w.held}`}
              and a.user_id = ${w.buyer.id}`,
      );
      await tx.execute(
        sql`update ledger_entries e set amount = e.amount - 100 from ledger_accounts a, ledger_transactions x
            where a.id = e.account_id and x.id = e.transaction_id and x.idempotency_key = ${`purchase:${w.held}`}
              and a.user_id = ${w.seller.id}`,
      );
    });
    expectViolation(
      report,
      new RegExp(
        `^purchase: transaction purchase:${w.held} .*entries differ: .*available of user ${w.buyer.id} expected -2000 got -1900`,
      ),
    );
    const wrongAccount = await corrupted((tx) =>
      tx.execute(
        sql`update ledger_entries e set account_id = (select id from ledger_accounts where user_id = ${w.seller.id} and kind = 'available')
            from ledger_accounts a, ledger_transactions x
            where a.id = e.account_id and x.id = e.transaction_id and x.idempotency_key = ${`purchase:${w.held}`}
              and a.user_id = ${w.seller.id}`,
      ),
    );
    expectViolation(wrongAccount, new RegExp(`purchase:${w.held} .*pending of user ${w.seller.id} expected 1800 got 0`));
  });

  it('refund: a refunded order without its refund transaction, and a paid order with one', async () => {
    const missing = await corrupted(async (tx) => {
      await tx.execute(
        sql`delete from ledger_entries where transaction_id in (select id from ledger_transactions where idempotency_key = ${`refund:${w.refundedHeld}`})`,
      );
      await tx.execute(sql`delete from ledger_transactions where idempotency_key = ${`refund:${w.refundedHeld}`}`);
    });
    expectViolation(
      missing,
      new RegExp(`^refund: transaction refund:${w.refundedHeld} \\(OrderStatusRefunded, 22 points, fee 220\\): missing$`),
    );

    const unrefunded = await corrupted((tx) =>
      tx.execute(sql`update orders set status = 'OrderStatusPaid' where id = ${w.refundedCleared}`),
    );
    expectViolation(unrefunded, new RegExp(`^refund: transaction refund:${w.refundedCleared} \\(OrderStatusPaid.*not expected`));
  });

  it('refund: a refund inside the hold must come out of pending, after clearing out of available', async () => {
    const report = await corrupted((tx) =>
      tx.execute(
        sql`update ledger_entries e set account_id = (select id from ledger_accounts where user_id = ${w.seller.id} and kind = 'available')
            from ledger_accounts a, ledger_transactions x
            where a.id = e.account_id and x.id = e.transaction_id and x.idempotency_key = ${`refund:${w.refundedHeld}`}
              and a.user_id = ${w.seller.id}`,
      ),
    );
    expectViolation(report, new RegExp(`refund:${w.refundedHeld} .*pending of user ${w.seller.id} expected -1980 got 0`));
  });

  it('deposit: a credited payment without its posting, a bill whose credited total disagrees, an uncredited bill with payments', async () => {
    const bills = await t.app.ctx.database.db.execute(
      sql`select payment_ref from deposit_payments where bill_id = ${w.depositBill}`,
    );
    const ref = (bills as unknown as { rows: { payment_ref: string }[] }).rows[0]!.payment_ref;
    const missing = await corrupted(async (tx) => {
      await tx.execute(sql`update deposit_payments set ledger_transaction_id = null where bill_id = ${w.depositBill}`);
      await tx.execute(
        sql`delete from ledger_entries where transaction_id in (select id from ledger_transactions where idempotency_key = ${`deposit:${ref}`})`,
      );
      await tx.execute(sql`delete from ledger_transactions where idempotency_key = ${`deposit:${ref}`}`);
    });
    expectViolation(
      missing,
      new RegExp(
        `^deposit: transaction deposit:${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(payment of bill ${w.depositBill}, DepositStatusSuccess, credited 600000\\): missing$`,
      ),
      new RegExp(
        `^deposit bill ${w.depositBill} \\(DepositStatusSuccess\\): credited 600000, its 1 payment\\(s\\) credited 600000, the ledger credited 0$`,
      ),
    );

    const overstated = await corrupted((tx) =>
      tx.execute(sql`update deposit_bills set credited = credited + 1 where id = ${w.depositBill}`),
    );
    expectViolation(overstated, new RegExp(`^deposit bill ${w.depositBill} .*credited 600001`));

    const expired = await corrupted((tx) =>
      tx.execute(sql`update deposit_bills set status = 'DepositStatusExpired' where id = ${w.depositBill}`),
    );
    expectViolation(expired, new RegExp(`^deposit bill ${w.depositBill} \\(DepositStatusExpired\\)`));

    const stray = await corrupted((tx) =>
      t.app.ctx.services.ledger.post(
        {
          key: 'deposit:sandbox:nobody:1',
          kind: 'deposit',
          bizId: w.depositBill,
          entries: [
            { account: { platform: 'deposits' }, amount: -5n },
            { account: { userId: w.buyer.id, kind: 'available' }, amount: 5n },
          ],
        },
        tx,
      ),
    );
    expectViolation(
      stray,
      /^deposit: transaction deposit:sandbox:nobody:1 \(no such row\): not expected/,
      new RegExp(`^deposit bill ${w.depositBill} .*the ledger credited 600005$`),
    );
  });

  it('cash-outs: each status has exactly its ledger transactions', async () => {
    const reopened = await corrupted((tx) =>
      tx.execute(sql`update withdraw_bills set status = 'WithdrawStatusProcessing' where id = ${w.settledBill}`),
    );
    expectViolation(
      reopened,
      new RegExp(
        `^withdraw-settle: transaction withdraw-settle:${w.settledBill} \\(WithdrawStatusProcessing, 250000 minor\\): not expected`,
      ),
    );

    const flipped = await corrupted((tx) =>
      tx.execute(sql`update withdraw_bills set status = 'WithdrawStatusSuccess' where id = ${w.refundedBill}`),
    );
    expectViolation(
      flipped,
      new RegExp(`^withdraw-settle: transaction withdraw-settle:${w.refundedBill} .*: missing$`),
      new RegExp(`^withdraw-refund: transaction withdraw-refund:${w.refundedBill} .*: not expected`),
    );

    const unconfirmed = await corrupted((tx) =>
      tx.execute(sql`update withdraw_bills set status = 'WithdrawStatusProcessing' where id = ${w.openBill}`),
    );
    expectViolation(
      unconfirmed,
      new RegExp(
        `^withdraw-freeze: transaction withdraw-freeze:${w.openBill} \\(WithdrawStatusProcessing, 250000 minor\\): missing$`,
      ),
    );

    const fee = await corrupted((tx) =>
      tx.execute(sql`update withdraw_bills set fee_points = fee_points + 1 where id = ${w.settledBill}`),
    );
    expectViolation(
      fee,
      new RegExp(
        `^withdraw-settle: transaction withdraw-settle:${w.settledBill} .*entries differ: fees \\(platform\\) expected 10001 got 10000; withdrawals \\(platform\\) expected 239999 got 240000$`,
      ),
    );
  });

  it('clearance: a cleared order without its clear posting, a clear posting of an uncleared order, pending against held sales', async () => {
    const uncleared = await corrupted((tx) => tx.execute(sql`update orders set cleared_at = null where id = ${w.cleared}`));
    expectViolation(
      uncleared,
      new RegExp(`^clear: transaction clear:${w.cleared} \\(OrderStatusPaid, 21 points, fee 210, not cleared\\): not expected`),
      new RegExp(`^pending of user ${w.seller.id}: balance 1800 but 2 held sale\\(s\\) worth 3690$`),
    );
    const clearedWithout = await corrupted((tx) => tx.execute(sql`update orders set cleared_at = paid_at where id = ${w.held}`));
    expectViolation(
      clearedWithout,
      new RegExp(`^clear: transaction clear:${w.held} \\(OrderStatusPaid, 20 points, fee 200, cleared\\): missing$`),
      new RegExp(`^pending of user ${w.seller.id}: balance 1800 but 0 held sale\\(s\\) worth 0$`),
    );
    // A held sale whose proceeds went straight to available: purchase and pending both disagree.
    const noAccount = await corrupted((tx) =>
      tx.execute(sql`update ledger_accounts set kind = 'pending_old' where user_id = ${w.seller.id} and kind = 'pending'`),
    );
    expectViolation(
      noAccount,
      new RegExp(`^pending of user ${w.seller.id}: no pending account, but 1 held sale\\(s\\) worth 1800$`),
    );
  });

  it('clearance rules are skipped, not failed, while the columns do not exist', async () => {
    const report = await corrupted(async (tx) => {
      await tx.execute(sql`alter table orders rename column cleared_at to cleared_at_hidden`);
      await tx.execute(sql`alter table orders rename column clears_at to clears_at_hidden`);
    });
    expect(report.skipped).toEqual(['clear', 'pending']);
    // Without clearance every sale is expected to credit the seller's available account: the held
    // sale's posting to pending is now a difference (the world was built with clearance on).
    expect(report.violations.every((v) => /^(purchase|refund): /.test(v))).toBe(true);
  });
});
