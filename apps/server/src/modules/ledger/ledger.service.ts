/**
 * The points ledger (product §13): double-entry, idempotent, one database transaction per business event.
 *
 * Every points movement calls {@link LedgerService.post} inside the same database transaction as the
 * state change it pays for. Amounts are bigint minor units (hundredths of a point).
 *
 * Words (docs/architecture.md "Glossary"): a ledger transaction is one business event under one
 * idempotency key; its entries ({@link LedgerEntry}: an account and a signed amount) sum to zero; to
 * post is to write a ledger transaction with its entries and balance updates.
 *
 * Rules:
 * - a ledger transaction's entries sum to zero, each is non-zero, at least two (else `Error` before any SQL);
 * - the idempotency key is unique: the same key again returns the first transaction and changes nothing,
 *   also when posted concurrently from many connections (the unique index arbitrates);
 * - user accounts (available, frozen, pending) are updated in a fixed order (by account id) so concurrent
 *   ledger transactions cannot deadlock, and a database CHECK keeps them >= 0: a debit beyond the balance throws
 *   `AppError(INSUFFICIENT_BALANCE)` and the caller's transaction rolls back;
 * - platform accounts (deposits, withdrawals, fees) keep no stored balance row updates — their balance
 *   is the sum of their entries — so they never become a lock hot spot.
 */
import type { Db, DbOrTx, Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { findPgError, PG } from '../../lib/pg-errors';
import * as repo from './ledger.repository';
import { LedgerTransactionKind, type PlatformAccountKind, type UserAccountKind } from './ledger.repository';

export { LedgerTransactionKind } from './ledger.repository';

export type AccountRef = { userId: string; kind: UserAccountKind } | { platform: PlatformAccountKind };

/** One entry of a ledger transaction: an account and the amount it moves (a row of `ledger_entries`). */
export interface LedgerEntry {
  account: AccountRef;
  /** Signed minor units: + credits the account, - debits it. */
  amount: bigint;
}

/** One ledger transaction to post ({@link LedgerService.post}). */
export interface PostInput {
  /** Idempotency key, e.g. `deposit:<bill id>`, `purchase:<order id>`. */
  key: string;
  /** Which business event: one of {@link LedgerTransactionKind}. */
  kind: LedgerTransactionKind;
  /** The bill or order id the event belongs to. */
  bizId: string;
  /** At least two, non-zero, summing to zero; entries of one account are merged. */
  entries: LedgerEntry[];
}

/**
 * One ledger transaction of a batch ({@link LedgerService.postBatch}): `debit` minor units leave the
 * user's `available` account and are spread over `credits` (user or platform accounts, each > 0,
 * summing to `debit`).
 */
export interface BatchTransaction {
  key: string;
  kind: LedgerTransactionKind;
  bizId: string;
  /** The user whose `available` account pays, and the positive minor units it pays. */
  debit: { userId: string; amount: bigint };
  credits: LedgerEntry[];
}

/** What became of one ledger transaction of a batch. */
export type BatchOutcome = 'posted' | 'replayed' | 'insufficient';

/** User accounts cached at most (ids never change once created; the cache is dropped when full). */
const ACCOUNT_CACHE_MAX = 100_000;

export interface PostResult {
  transactionId: string;
  /** True when the key had been posted before and nothing changed now. */
  replayed: boolean;
}

/** Throws unless the entries are a valid double entry. */
export function assertBalanced(entries: LedgerEntry[]): void {
  if (entries.length < 2) throw new Error('A ledger transaction needs at least two entries');
  let sum = 0n;
  for (const p of entries) {
    if (typeof p.amount !== 'bigint') throw new Error('Ledger amounts must be bigint minor units');
    if (p.amount === 0n) throw new Error('A ledger entry cannot be zero');
    sum += p.amount;
  }
  if (sum !== 0n) throw new Error(`Ledger entries must sum to zero (sum ${sum})`);
}

export function createLedgerService(deps: { db: Db }) {
  const platformIds = new Map<PlatformAccountKind, string>();
  // Ledger accounts are never deleted and their ids never change, so a user's ids are cached after
  // the first read (a ledger transaction then resolves them without a statement).
  const userIds = new Map<string, Record<UserAccountKind, string>>();
  const remember = (userId: string, ids: Record<UserAccountKind, string>) => {
    if (userIds.size >= ACCOUNT_CACHE_MAX) userIds.clear();
    userIds.set(userId, ids);
  };

  async function userAccounts(tx: DbOrTx, userId: string): Promise<Record<UserAccountKind, string>> {
    const cached = userIds.get(userId);
    if (cached) return cached;
    const found = (await repo.userAccountIds(tx, [userId])).get(userId);
    if (found) remember(userId, found);
    // Accounts created here are not cached: the caller's transaction may still roll back.
    return found ?? repo.ensureUserAccounts(tx, userId);
  }

  /** The account ids of many users: cached ones without SQL, the rest in one read (created if missing). */
  async function manyUserAccounts(tx: DbOrTx, users: string[]): Promise<Map<string, Record<UserAccountKind, string>>> {
    const out = new Map<string, Record<UserAccountKind, string>>();
    const missing: string[] = [];
    for (const u of new Set(users)) {
      const ids = userIds.get(u);
      if (ids) out.set(u, ids);
      else missing.push(u);
    }
    if (missing.length) {
      const found = await repo.userAccountIds(tx, missing);
      for (const u of missing) {
        let ids = found.get(u);
        if (ids) remember(u, ids);
        else ids = await repo.ensureUserAccounts(tx, u); // not cached: the transaction may roll back
        out.set(u, ids);
      }
    }
    return out;
  }

  async function platformId(tx: DbOrTx, kind: PlatformAccountKind): Promise<string> {
    let id = platformIds.get(kind);
    if (!id) {
      id = await repo.ensurePlatformAccount(tx, kind);
      platformIds.set(kind, id);
    }
    return id;
  }

  async function accountId(tx: DbOrTx, ref: AccountRef): Promise<string> {
    if ('platform' in ref) return platformId(tx, ref.platform);
    return (await userAccounts(tx, ref.userId))[ref.kind];
  }

  async function postIn(tx: DbOrTx, input: PostInput): Promise<PostResult> {
    const transactionId = newId();
    const inserted = await repo.insertTransaction(tx, {
      id: transactionId,
      idempotencyKey: input.key,
      kind: input.kind,
      bizId: input.bizId,
    });
    if (!inserted) {
      const existing = await repo.findTransactionByKey(tx, input.key);
      if (!existing) throw new Error(`ledger key ${input.key} vanished`);
      return { transactionId: existing.id, replayed: true };
    }
    // Merge entries per account, resolve ids, then touch user balances in id order.
    const resolved: { accountId: string; amount: bigint; isUser: boolean }[] = [];
    for (const p of input.entries) {
      resolved.push({ accountId: await accountId(tx, p.account), amount: p.amount, isUser: !('platform' in p.account) });
    }
    const perAccount = new Map<string, { amount: bigint; isUser: boolean }>();
    for (const r of resolved) {
      const cur = perAccount.get(r.accountId);
      perAccount.set(r.accountId, { amount: (cur?.amount ?? 0n) + r.amount, isUser: r.isUser });
    }
    const ordered = [...perAccount.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    try {
      for (const [id, { amount, isUser }] of ordered) {
        if (isUser && amount !== 0n) await repo.applyToBalance(tx, id, amount);
      }
    } catch (err) {
      if (findPgError(err, [PG.CHECK_VIOLATION])) throw errors.insufficientBalance();
      throw err;
    }
    await repo.insertEntries(tx, transactionId, resolved);
    return { transactionId, replayed: false };
  }

  return {
    /**
     * Posts one balanced ledger transaction.
     * @param input key, kind, bizId and entries (bigint minor units summing to zero)
     * @param tx the caller's open transaction; without it the ledger transaction runs in a database
     *   transaction of its own
     * @throws Error when the entries are not balanced (before any SQL)
     * @throws AppError INSUFFICIENT_BALANCE when a user account would go below zero
     */
    async post(input: PostInput, tx?: Tx): Promise<PostResult> {
      assertBalanced(input.entries);
      if (tx) return postIn(tx, input);
      return deps.db.transaction((t) => postIn(t, input));
    },

    /**
     * Posts many ledger transactions in the caller's database transaction with a fixed number of
     * statements (group commit, docs/purchases.md), each all-or-nothing on its own:
     * 1-3. one statement ({@link repo.postMany}, docs/decisions/0040-ledger-batch-in-one-statement.md):
     *    a key posted before is a replay (nothing is written for it); one conditional debit of every
     *    other payer's `available` (locks in account-id order): a payer whose balance does not cover
     *    the debit is left unchanged and its transaction is `insufficient`; the transaction rows and
     *    entries of the debited ones;
     * 4. `beforeLast(outcomes)` (the caller's own writes, its hot rows last);
     * 5. the credits of user accounts summed per account (locks in account-id order) — the last
     *    statement, so a hot seller row is locked once per batch and only until COMMIT. Platform
     *    accounts get entries only (0002-ledger.md).
     * Two transactions debiting the same user are all-or-nothing together (callers put at most one
     * per user in a batch).
     * @returns one outcome per transaction, in input order
     * @throws Error when a transaction is not balanced or a key repeats (before any SQL); database errors (the caller's
     * transaction must roll back, e.g. a deadlock to retry)
     */
    async postBatch(
      tx: Tx,
      items: BatchTransaction[],
      beforeLast?: (outcomes: BatchOutcome[]) => Promise<void>,
    ): Promise<BatchOutcome[]> {
      for (const it of items) {
        if (it.debit.amount <= 0n) throw new Error('A batch debit must be positive');
        if (it.credits.some((c) => c.amount <= 0n)) throw new Error('Batch credits must be positive');
        assertBalanced([{ account: { userId: it.debit.userId, kind: 'available' }, amount: -it.debit.amount }, ...it.credits]);
      }
      if (new Set(items.map((it) => it.key)).size !== items.length) throw new Error('A batch cannot post one key twice');
      const users = items.flatMap((it) => [
        it.debit.userId,
        ...it.credits.flatMap((c) => ('platform' in c.account ? [] : [c.account.userId])),
      ]);
      const accounts = await manyUserAccounts(tx, users);
      const idOf = async (ref: AccountRef) =>
        'platform' in ref ? platformId(tx, ref.platform) : accounts.get(ref.userId)![ref.kind];

      const txIds = items.map(() => newId());
      const entries: { transactionId: string; accountId: string; amount: bigint }[] = [];
      for (const [i, it] of items.entries()) {
        entries.push({ transactionId: txIds[i]!, accountId: accounts.get(it.debit.userId)!.available, amount: -it.debit.amount });
        for (const c of it.credits)
          entries.push({ transactionId: txIds[i]!, accountId: await idOf(c.account), amount: c.amount });
      }
      const { posted, replayed } = await repo.postMany(
        tx,
        items.map((it, i) => ({
          id: txIds[i]!,
          idempotencyKey: it.key,
          kind: it.kind,
          bizId: it.bizId,
          accountId: accounts.get(it.debit.userId)!.available,
          amount: it.debit.amount,
        })),
        entries,
      );
      const outcomes: BatchOutcome[] = items.map((it) =>
        posted.has(it.key) ? 'posted' : replayed.has(it.key) ? 'replayed' : 'insufficient',
      );

      const credits = new Map<string, bigint>();
      for (const [i, it] of items.entries()) {
        if (outcomes[i] !== 'posted') continue;
        for (const c of it.credits) {
          if ('platform' in c.account) continue;
          const accountId = accounts.get(c.account.userId)![c.account.kind];
          credits.set(accountId, (credits.get(accountId) ?? 0n) + c.amount);
        }
      }
      if (beforeLast) await beforeLast(outcomes);
      await repo.creditMany(
        tx,
        [...credits].map(([accountId, amount]) => ({ accountId, amount })),
      );
      return outcomes;
    },

    /** Moves `amount` minor units from the user's available to frozen (key e.g. `freeze:<bill>`). */
    freeze(userId: string, amount: bigint, key: string, bizId: string, tx?: Tx) {
      return this.post(
        {
          key,
          kind: LedgerTransactionKind.Freeze,
          bizId,
          entries: [
            { account: { userId, kind: 'available' }, amount: -amount },
            { account: { userId, kind: 'frozen' }, amount },
          ],
        },
        tx,
      );
    },

    /** Moves `amount` minor units back from frozen to available. */
    unfreeze(userId: string, amount: bigint, key: string, bizId: string, tx?: Tx) {
      return this.post(
        {
          key,
          kind: LedgerTransactionKind.Unfreeze,
          bizId,
          entries: [
            { account: { userId, kind: 'frozen' }, amount: -amount },
            { account: { userId, kind: 'available' }, amount },
          ],
        },
        tx,
      );
    },

    /** Creates the user's ledger accounts (called at registration). */
    async openUserAccounts(userId: string, tx?: DbOrTx): Promise<void> {
      // Not cached here: the caller's transaction may still roll back.
      await repo.ensureUserAccounts(tx ?? deps.db, userId);
    },

    /**
     * Locks the user's ledger accounts until `tx` ends: no posting to them lands meanwhile (a decision
     * on the user's balances, e.g. account deletion, reads them under this lock).
     */
    lockUserAccounts(userId: string, tx: Tx): Promise<void> {
      return repo.lockUserAccounts(tx, userId);
    },

    /** The user's balances in minor units (read inside `tx` when given; a prepared statement otherwise). */
    balances(userId: string, tx?: DbOrTx): Promise<{ available: bigint; frozen: bigint; pending: bigint }> {
      return tx ? repo.userBalances(tx, userId) : repo.userBalancesPrepared(deps.db, userId);
    },

    /**
     * Every user's balance (available + frozen + pending, minor units), in pages of `pageSize` ordered by user
     * id, read inside `tx` (the caller opens it REPEATABLE READ to see one instant: proof of
     * liabilities, product §22).
     */
    async *allUserTotals(tx: Tx, pageSize = 5_000): AsyncGenerator<{ userId: string; balance: bigint }[]> {
      let after = '';
      for (;;) {
        const page = await repo.userTotalsPage(tx, after, pageSize);
        if (page.length) yield page;
        if (page.length < pageSize) return;
        after = page[page.length - 1]!.userId;
      }
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
