/**
 * The composition root of the services (docs/decisions/0019-plain-wiring.md): builds every
 * provider and service once, in dependency order, each given what it uses in its constructor. No
 * service is completed after it is built (no bind or add-later calls), so what a service depends on
 * is read from its constructor call below.
 *
 * The small functions one module lends another (the deletion guards and hook of the account
 * service, the suspension check of withdrawals, the orders module's reads of orders.service.ts) are
 * built here from functions the owning module's service exports. Neither this file nor app.ts imports
 * a repository, and no module imports another module's repository (eslint.config.js).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from './db/client';
import type { Config } from './env';
import type { Clock } from './lib/clock';
import type { SharedState } from './lib/shared-state';
import { createPasswordBudget } from './modules/account/password-budget';
import { twoFactorKey } from './modules/account/two-factor';
import { createAuthService } from './modules/account/auth.service';
import { createCredentials } from './modules/account/credentials';
import { createLoginGuard } from './modules/account/login-guard';
import { createProfileService, lockUserRow, noticeEmailOf, type DeletionGuard } from './modules/account/profile.service';
import { createSessionsService } from './modules/account/sessions.service';
import { createTwoFactorService } from './modules/account/two-factor.service';
import { createCollectionsService } from './modules/collections/collections.service';
import { createCreatorsService } from './modules/creators/creators.service';
import { countOpenDepositBills, createDepositsService } from './modules/deposits/deposits.service';
import { createDiscountsService } from './modules/discounts/discounts.service';
import { createDownloadsService } from './modules/downloads/downloads.service';
import { createEventsService } from './modules/events/events.service';
import { createLedgerService } from './modules/ledger/ledger.service';
import { createLicencesService } from './modules/licences/licences.service';
import { createOrderReads } from './modules/orders/orders.service';
import { createClearanceService, type ClearanceService } from './modules/orders/clearance.service';
import { createListingsService } from './modules/orders/listings.service';
import { createPurchaseService } from './modules/orders/purchase.service';
import { createRefundsService } from './modules/orders/refunds.service';
import { createPaymentsService } from './modules/payments/payments.service';
import { createRecordsService } from './modules/records/records.service';
import { createReservesService } from './modules/reserves/reserves.service';
import { createReviewsService } from './modules/reviews/reviews.service';
import { createSalesService } from './modules/sales/sales.service';
import { createIdempotencyService } from './modules/idempotency/idempotency.service';
import { createTokensService } from './modules/tokens/tokens.service';
import { createImagesService } from './modules/uploads/images.service';
import { createUploadsService } from './modules/uploads/uploads.service';
import { createModerationService, suspensionCheck } from './modules/moderation/moderation.service';
import { listenForPayoutWork, type PayoutWakeListener } from './modules/withdrawals/payout-wake';
import { createWithdrawalsService, hasCashOutInFlight } from './modules/withdrawals/withdrawals.service';
import { createMailProvider } from './providers/mail/index';
import { createMailQueue } from './modules/mail/mail-queue.service';
import { createPaymentProvider } from './providers/payments/index';
import { createStorage, storageSigningSecret } from './providers/storage/index';
import type { Worker } from './worker-runner';

/** Deletion guard: a refusal while a confirmed withdrawal is in flight (product §12). */
export const withdrawalInFlightGuard: DeletionGuard = async (userId, tx) =>
  (await hasCashOutInFlight(tx, userId))
    ? 'A cash-out is still in progress. Please wait until it completes before deleting your account.'
    : null;

/**
 * Deletion guard: a Processing deposit bill may still be paid, so deletion waits for it (a later
 * payment is still credited, docs/abuse.md).
 */
export const openDepositGuard: DeletionGuard = async (userId, tx) =>
  (await countOpenDepositBills(tx, userId)) > 0
    ? 'A deposit is still being processed. Please wait until it completes or expires before deleting your account.'
    : null;

export interface ServicesDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Counters and the revocation bus shared by every instance (lib/shared-state.ts). */
  shared: SharedState;
}

/** Pending uploads untouched for this long are aborted and their parts dropped (milliseconds: a week). */
const STALE_UPLOAD_MS = 7 * 24 * 3_600_000;

/**
 * WEBHOOK_ALLOW_PRIVATE: `true` (or `1`) lets webhook URLs be http://localhost and reach private
 * addresses — for development and tests only; the server logs a warning that it is on. Off by
 * default in every mode (docs/abuse.md "Webhook targets").
 */
export function webhooksMayReachPrivate(config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE'>, log: Pick<FastifyBaseLogger, 'warn'>): boolean {
  const on = config.WEBHOOK_ALLOW_PRIVATE === 'true' || config.WEBHOOK_ALLOW_PRIVATE === '1';
  if (on) log.warn('WEBHOOK_ALLOW_PRIVATE is on: webhook URLs may reach localhost and private addresses (never in production)');
  return on;
}

/** Wakes a worker pass at most this long after the next pending proceeds fall due. */
const CLEARANCE_INTERVAL_MS = 60_000;

/**
 * The clearance worker (product.md "Clearance", docs/decisions/0045-clearance-and-step-up.md):
 * clears every due sale each pass, then sets a timer to the next due time when it comes before the
 * next interval, so proceeds clear within a second of their time, not a minute.
 */
function clearanceWorker(clearance: ClearanceService, clock: { now(): number }): Worker {
  let wakeNow: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  return {
    name: 'clearance',
    intervalMs: CLEARANCE_INTERVAL_MS,
    wake(run) {
      wakeNow = run;
    },
    async tick(signal) {
      const cleared = await clearance.clearDue(signal);
      const next = await clearance.nextClearanceOverall();
      if (timer) clearTimeout(timer);
      timer = null;
      const wait = next === null ? null : next - clock.now();
      if (wait !== null && wait < CLEARANCE_INTERVAL_MS && wakeNow && !signal?.aborted) {
        timer = setTimeout(() => wakeNow?.(), Math.max(0, wait) + 50);
        timer.unref();
      }
      return { cleared };
    },
  };
}

/**
 * Builds the providers and services, the background workers and the payment rail's own routes.
 * @returns `services` (the app's `ctx.services`), `workers` (for the worker runner), `railRoutes`
 * (registers a rail's own routes, e.g. the NOWPayments IPN, on the API scope, when it has any) and
 * `close` (waits for reset mails, closes the mail provider and the rail; call once when the app closes)
 */
export async function buildServices(deps: ServicesDeps) {
  const { config, clock, log, shared } = deps;
  const db = deps.database.db;

  const mail = createMailProvider(config);
  const mailQueue = createMailQueue({ db, clock, mail, log, timeoutMs: config.MAIL_TIMEOUT_MS });
  const ledger = createLedgerService({ db });
  // The reads the orders module lends collections, downloads, reviews and records (orders.service.ts).
  const orderReads = createOrderReads(db);
  // Purchase, Sale and Refund records name their order's collection (read from the orders module).
  const records = createRecordsService({ db, collectionsOfOrders: orderReads.collectionsOfOrders });
  const storage = await createStorage(config, clock);
  const images = createImagesService({ db, storage, clock, publicUrl: config.publicUrl });
  const events = createEventsService({
    db,
    clock,
    log,
    // Private webhook targets only with WEBHOOK_ALLOW_PRIVATE=true, in every mode (docs/abuse.md).
    allowPrivate: webhooksMayReachPrivate(config, log),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    mailQueue,
    // The owner's address of the "webhook turned off" mail (the account module's read).
    ownerEmail: noticeEmailOf,
    publicUrl: config.publicUrl,
    // Ed25519 webhook signing keys are sealed like two-factor secrets (ADR 0061).
    sealKey: twoFactorKey(config),
  });
  // The clearance of the sellers' pending proceeds (product.md "Clearance"): before the account
  // service, which tells a seller when their next proceeds clear.
  const clearance = createClearanceService({ db, clock, ledger, events: events.writer });
  // The account module, in dependency order: the live account and password check (one password
  // budget for every proof), two-factor, sessions and step-up, sign-in and passwords, profile.
  const credentials = createCredentials({ db, clock, passwordBudget: createPasswordBudget(shared.counters) });
  const twoFactor = createTwoFactorService({ db, clock, credentials, twoFactorKey: twoFactorKey(config) });
  const sessions = createSessionsService({
    db,
    clock,
    sessionTtlHours: config.SESSION_TTL_HOURS,
    credentials,
    twoFactor,
    revocations: shared.revocations,
    log,
    stepUpMinutes: config.STEP_UP_MINUTES,
  });
  const auth = createAuthService({
    db,
    clock,
    ledger,
    credentials,
    twoFactor,
    sessions,
    mail,
    mailQueue,
    log,
    loginGuard: createLoginGuard(shared.counters),
  });
  // The profile service listens to the sessions' revocations (sessions.onRevocation) to empty its
  // user-row cache: a subscription, as to the revocation bus, which changes nothing the sessions do.
  const profile = createProfileService({
    db,
    clock,
    ledger,
    credentials,
    sessions,
    avatarUrl: images.avatarUrl,
    checkAvatar: images.claim,
    deletionGuards: [withdrawalInFlightGuard, openDepositGuard],
    // Bound late: the collections service is built below. Archiving goes through it so that its
    // read cache is emptied (account deletion must not leave a collection shown as Published).
    deletionHooks: [(userId, tx) => collections.archivePublishedOf(userId, tx)],
    nextClearance: clearance.nextClearance,
  });
  // Personal access tokens (ADR 0058): creation re-authenticates through the sessions' step-up.
  const tokens = createTokensService({
    db,
    clock,
    confirmSensitive: (userId, proof, prompts) => sessions.confirmSensitive(userId, proof, prompts),
    // The live-token limit is counted under the user's row lock (the account module's).
    lockUser: lockUserRow,
    revocations: shared.revocations,
    log,
  });
  const uploads = createUploadsService({
    db,
    storage,
    clock,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    quotaBytes: config.STORAGE_QUOTA_BYTES,
  });
  const collections = createCollectionsService({
    db,
    clock,
    storage,
    uploads,
    images,
    avatarUrl: images.avatarUrl,
    purchases: orderReads.purchases,
    mailQueue,
    publicUrl: config.publicUrl,
  });
  const creators = createCreatorsService({ profile, collections });
  const downloads = createDownloadsService({
    clock,
    storage,
    collections,
    uploads,
    purchases: orderReads.purchases,
    publicUrl: config.publicUrl,
    secret: storageSigningSecret(config),
  });
  const discounts = createDiscountsService({ db, clock, collections });
  const licences = createLicencesService({ db, clock, collections, mailQueue });
  const reviews = createReviewsService({
    db,
    clock,
    collections,
    orders: orderReads.paidOrders,
    events: events.writer,
    avatarUrl: images.avatarUrl,
  });
  const sales = createSalesService({ db, clock });
  // Idempotency-Key answers of the endpoint table's `idempotent` calls (lib/route.ts, ADR 0051).
  const idempotency = createIdempotencyService({ db, clock });
  // The orders module (docs/purchases.md): buying and paying, refunds and reports, the order lists.
  const purchases = createPurchaseService({
    db,
    clock,
    ledger,
    records,
    // The step-up of `pay`: the sessions' and the credentials' own functions.
    accounts: {
      isSteppedUp: sessions.isSteppedUp,
      authorizeSpend: sessions.authorizeSpend,
      checkPassword: credentials.checkPassword,
    },
    collections,
    discounts,
    licences,
    events: events.writer,
    feeBps: config.PLATFORM_FEE_BPS,
    holdDays: config.EARNINGS_HOLD_DAYS,
  });
  const refunds = createRefundsService({ db, clock, ledger, records, collections, licences, reviews, events: events.writer });
  const orderListings = createListingsService({ db, collections, licences });
  const provider = await createPaymentProvider(config, { db, clock, log });
  const payments = createPaymentsService({ provider, clock, pointsPerUsd: config.POINTS_PER_USD });
  const deposits = createDepositsService({
    db,
    clock,
    ledger,
    records,
    payments,
    log,
    maxOpenBills: config.MAX_OPEN_DEPOSIT_BILLS,
  });
  const withdrawals = createWithdrawalsService({
    db,
    clock,
    ledger,
    records,
    credentials,
    twoFactor,
    payments,
    events: events.writer,
    log,
    payoutConcurrency: config.PAYOUT_CONCURRENCY,
    refuseSuspended: suspensionCheck(db),
  });
  const moderation = createModerationService({
    db,
    clock,
    collections,
    events: events.writer,
    revocations: shared.revocations,
  });
  const reserves = createReservesService({
    db,
    clock,
    ledger,
    provider,
    pointsPerUsd: config.POINTS_PER_USD,
    reserveAddresses: config.RESERVE_ADDRESSES,
  });
  // A rail with machinery of its own (the evm chain watcher, the nowpayments IPN route) credits through the deposits service.
  const rail = provider.attach?.({ credit: (payment) => deposits.creditPayment(payment) });

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
          wakeListener = listenForPayoutWork(url, provider.name, run, log);
        }
      },
    },
    {
      name: 'bill-expiry',
      intervalMs: 15_000,
      tick: async () => ({ deposits: await deposits.expireDue(), withdrawals: await withdrawals.expireDue() }),
    },
    ...(provider.pollPayments ? [{ name: 'deposit-watcher', intervalMs: 5_000, tick: () => deposits.pollProvider() }] : []),
    ...(rail?.workers ?? []),
    // Webhook deliveries: new events get a delivery row, due ones are sent (asynchronous from every purchase).
    { name: 'webhooks', intervalMs: 2_000, tick: (signal) => events.deliverDue(signal) },
    // Queued notification mails: retries, and mails an instance left mid-send (its lease ran out).
    { name: 'mail', intervalMs: 10_000, tick: (signal) => mailQueue.deliverDue(signal) },
    { name: 'uploads-cleanup', intervalMs: 3_600_000, tick: () => uploads.abortStale(STALE_UPLOAD_MS) },
    // Idempotency keys past their 24 h.
    { name: 'idempotency-keys', intervalMs: 3_600_000, tick: async () => ({ purged: await idempotency.purgeExpired() }) },
    clearanceWorker(clearance, clock),
  ];

  return {
    services: {
      mail,
      mailQueue,
      storage,
      provider,
      ledger,
      records,
      images,
      // The account module's parts (docs/architecture.md "Accounts"): each caller takes the one it needs.
      credentials,
      auth,
      twoFactor,
      sessions,
      profile,
      tokens,
      uploads,
      collections,
      creators,
      downloads,
      purchases,
      refunds,
      orderListings,
      // The clearance job of product.md "Clearance" (also run by its worker): tests and scripts call it.
      clearance,
      discounts,
      licences,
      payments,
      deposits,
      withdrawals,
      reserves,
      events,
      moderation,
      reviews,
      sales,
      idempotency,
    },
    workers,
    async railRoutes(app: FastifyInstance): Promise<void> {
      await rail?.routes?.(app);
    },
    /** Waits for the mails this instance is sending (before the database closes). */
    async mailSettled(): Promise<void> {
      await auth.mailSettled();
      await mailQueue.settled();
    },
    async close(): Promise<void> {
      await auth.mailSettled();
      await mailQueue.settled();
      await mail.close();
      await wakeListener?.close();
      await rail?.close?.();
    },
  };
}

/** The services of one app (`app.ctx.services`). */
export type Services = Awaited<ReturnType<typeof buildServices>>['services'];
