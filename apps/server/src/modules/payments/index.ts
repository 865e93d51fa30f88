/**
 * The payments module: builds the provider chosen by `PAYMENTS`, the payments, deposits and
 * withdrawals services, their background workers and routes. `app.ts` calls
 * {@link createPaymentsModule} once and registers `routes` and `workers`.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Worker } from '../../app';
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import type { Clock } from '../../lib/clock';
import { createPaymentProvider, type PaymentProvider } from '../../providers/payments/index';
import type { AccountService } from '../account/account.service';
import { countOpenBills } from '../deposits/deposits.repository';
import { depositRoutes } from '../deposits/deposits.routes';
import { createDepositsService } from '../deposits/deposits.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { RecordsService } from '../records/records.service';
import { withdrawalRoutes } from '../withdrawals/withdrawals.routes';
import { listenForPayoutWork, type PayoutWakeListener } from '../withdrawals/payout-wake';
import { createWithdrawalsService } from '../withdrawals/withdrawals.service';
import { paymentRoutes } from './payments.routes';
import { createPaymentsService } from './payments.service';

export interface PaymentsModuleDeps {
  config: Config;
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  records: RecordsService;
  accounts: AccountService;
  log?: FastifyBaseLogger;
  /** Overrides the provider `PAYMENTS` selects (tests inject a failing or slow one). */
  provider?: PaymentProvider;
}

export function createPaymentsModule(deps: PaymentsModuleDeps) {
  const { config, db, clock, ledger, records, accounts } = deps;
  const provider = deps.provider ?? createPaymentProvider(config, { db, clock, ...(deps.log ? { log: deps.log } : {}) });
  const payments = createPaymentsService({ provider, clock, pointsPerUsd: config.POINTS_PER_USD });
  const deposits = createDepositsService({
    db,
    clock,
    ledger,
    records,
    payments,
    log: deps.log,
    maxOpenBills: config.MAX_OPEN_DEPOSIT_BILLS,
  });
  const withdrawals = createWithdrawalsService({
    db,
    clock,
    ledger,
    records,
    accounts,
    payments,
    log: deps.log,
    payoutConcurrency: config.PAYOUT_CONCURRENCY,
  });
  accounts.addDeletionGuard((userId, tx) => withdrawals.deletionGuard(userId, tx));
  // A Processing deposit bill may still be paid: deletion waits for it (a later payment is still credited, docs/abuse.md).
  accounts.addDeletionGuard(async (userId, tx) =>
    (await countOpenBills(tx, userId)) > 0
      ? 'A deposit is still being processed. Please wait until it completes or expires before deleting your account.'
      : null,
  );

  let wakeListener: PayoutWakeListener | null = null;
  const workers: Worker[] = [
    {
      name: 'payouts',
      // The fallback: leases that ran out, pending payouts to ask about again, a missed wake-up.
      intervalMs: 2_000,
      tick: (signal) => withdrawals.drainPayouts(signal),
      // A confirmation wakes it at once: on this instance directly, on the others by NOTIFY (PostgreSQL).
      wake(run) {
        withdrawals.onPayoutWork(run);
        const url = config.DATABASE_URL;
        if (url && !url.startsWith('memory://') && !wakeListener) {
          wakeListener = listenForPayoutWork(url, provider.name, run, deps.log ?? { warn: () => undefined });
        }
      },
    },
    {
      name: 'bill-expiry',
      intervalMs: 15_000,
      tick: async () => ({ deposits: await deposits.expireDue(), withdrawals: await withdrawals.expireDue() }),
    },
  ];
  if (provider.pollPayments) workers.push({ name: 'deposit-watcher', intervalMs: 5_000, tick: () => deposits.pollProvider() });
  // A rail with machinery of its own (the evm chain watcher, the nowpayments IPN route) credits through the deposits service.
  const attachment = provider.attach?.({ credit: (payment) => deposits.creditPayment(payment) });
  workers.push(...(attachment?.workers ?? []));

  return {
    provider,
    payments,
    deposits,
    withdrawals,
    workers,
    /** Registers every payments route on `app`. */
    async routes(app: FastifyInstance) {
      await paymentRoutes(app, payments, deposits);
      depositRoutes(app, deposits);
      withdrawalRoutes(app, withdrawals);
      await attachment?.routes?.(app);
    },
    /** Releases what the provider holds (the evm watcher's lock connection). */
    async close() {
      await wakeListener?.close();
      await attachment?.close?.();
    },
  };
}

export type PaymentsModule = ReturnType<typeof createPaymentsModule>;
