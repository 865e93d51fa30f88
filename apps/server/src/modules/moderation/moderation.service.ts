/**
 * Reports, takedowns and suspensions (product §27, docs/decisions/0029-reports-and-takedowns.md).
 *
 * - `collection/report {collection_id, reason, details}`: a signed-in user reports a collection they
 *   can see and do not own. One open report per reporter and collection: a repeat answers the open
 *   one with `already_reported: true`. Rate limited per user (moderation.routes.ts).
 *   @throws NOT_FOUND (no collection the caller can see), FORBIDDEN (their own)
 * - Operator actions (the `npm run admin` command, scripts/admin.ts): `hide`, `unhide`, `suspend`,
 *   `unsuspend`, `resolveReport` (resolve or dismiss). Each runs in one transaction that also
 *   writes its `audit_log` row (actor = the operator's `--by`, action, target, reason, at, details);
 *   a takedown also writes the owner's `collection.hidden` seller event (ADR 0025) there.
 *   @throws VALIDATION_FAILED (empty reason or operator), NOT_FOUND, CONFLICT (nothing to change)
 *
 * What the actions do:
 * - hide: the collection leaves the market, search and the seller's page; details, files and the
 *   buy call answer NOT_FOUND to everyone but its owner (who sees `moderation`, the notice) and its
 *   paid buyers, who keep detail and downloads. With `removeFiles`, downloads are refused to
 *   everyone (CONFLICT, with a message saying so). No stored byte is deleted: unhide gives everything back.
 * - suspend: sign-in answers ACCOUNT_SUSPENDED (403) with the reason; every session and every
 *   personal access token is revoked (on every instance, through the revocation bus); the user's collections leave the market and cannot
 *   be bought; cash-out calls answer ACCOUNT_SUSPENDED. Balances are untouched. unsuspend lifts all
 *   of it (the user signs in again).
 */
import { SellerEventType, type CollectionReportData, type CollectionReportRequest } from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localBus, type RevocationBus } from '../../lib/shared-state';
import type { CollectionsService } from '../collections/collections.service';
import type { EventWriter } from '../events/events.service';
import * as repo from './moderation.repository';
import { refuseSuspended } from './suspension';

/** Longest operator reason, characters. */
export const OPERATOR_REASON_MAX = 500;
/** Longest operator name (`--by`), characters. */
export const OPERATOR_NAME_MAX = 100;

export type AuditAction =
  'collection.hide' | 'collection.unhide' | 'user.suspend' | 'user.unsuspend' | 'report.resolve' | 'report.dismiss';

/**
 * What moderation asks of the collections module: the collections service in the app; the admin
 * command (scripts/admin.ts) passes the same writes without the service's read caches.
 */
type CollectionRow = NonNullable<Awaited<ReturnType<CollectionsService['find']>>>;

export interface ModerationCollections {
  /** The collection as `viewerId` may see it. @throws NOT_FOUND */
  detail: CollectionsService['detail'];
  lock(collectionId: string, tx: Tx): Promise<CollectionRow | null>;
  setTakedown(
    collectionId: string,
    takedown: { at: Date; reason: string; filesRemoved: boolean } | null,
    tx: Tx,
  ): Promise<CollectionRow | null>;
  /** Empties the public read caches (a seller suspended or restored). */
  forget(): void;
}

export interface ModerationDeps {
  db: Db;
  clock: Clock;
  collections: ModerationCollections;
  /** Writes the `collection.hidden` seller event in the takedown's transaction. */
  events: EventWriter;
  /** Carries the suspended user's revoked sessions to every instance; default: this process only. */
  revocations?: RevocationBus;
}

/** Who acts and why (every operator action). */
export interface Operator {
  by: string;
  reason: string;
}

function checkOperator(op: Operator): Operator {
  const by = op.by?.trim() ?? '';
  const reason = op.reason?.trim() ?? '';
  if (!by) throw errors.validation('Say who you are: --by <operator>');
  if (by.length > OPERATOR_NAME_MAX) throw errors.validation(`--by must be at most ${OPERATOR_NAME_MAX} characters`);
  if (!reason) throw errors.validation('Give a reason: --reason "..."');
  if (reason.length > OPERATOR_REASON_MAX) throw errors.validation(`--reason must be at most ${OPERATOR_REASON_MAX} characters`);
  return { by, reason };
}

/**
 * The cash-out refusal of a suspended account (product §27), read from the user's suspension
 * columns: the function throws ACCOUNT_SUSPENDED while Coffer has suspended `userId`.
 */
export function suspensionCheck(db: Db): (userId: string) => Promise<void> {
  return async (userId) => {
    const row = await repo.findSuspension(db, userId);
    if (row) refuseSuspended(row);
  };
}

export function createModerationService(deps: ModerationDeps) {
  const { db, clock, collections } = deps;
  const revocations = deps.revocations ?? localBus();

  const audit = (tx: Tx, action: AuditAction, target: string, op: Operator, details: Record<string, unknown> = {}) =>
    repo.insertAudit(tx, { id: newId(), actor: op.by, action, target, reason: op.reason, at: new Date(clock.now()), details });

  /** Closes an open report in `tx`. @throws NOT_FOUND, CONFLICT (already closed, or of another collection) */
  async function close(tx: Tx, reportId: string, status: 'resolved' | 'dismissed', op: Operator, collectionId?: string) {
    const report = await repo.lockReport(tx, reportId);
    if (!report) throw errors.notFound(`No report ${reportId}`);
    if (collectionId && report.collectionId !== collectionId) {
      throw errors.conflict(`Report ${reportId} is about collection ${report.collectionId}, not ${collectionId}`);
    }
    if (report.status !== 'open') throw errors.conflict(`Report ${reportId} is already ${report.status}`);
    return (await repo.closeReport(tx, reportId, status, op.by, new Date(clock.now())))!;
  }

  return {
    /**
     * `collection/report` (see the module comment).
     * @returns report_id, status 'open', already_reported, created_at (ms)
     * @throws NOT_FOUND, FORBIDDEN
     */
    async report(reporterId: string, input: CollectionReportRequest): Promise<CollectionReportData> {
      // Visible like its details (published and not hidden, or bought): NOT_FOUND otherwise.
      const { collection } = await collections.detail(reporterId, input.collection_id);
      if (collection.owner_id === reporterId) throw errors.forbidden('You cannot report your own collection');
      const row =
        (await repo.insertReport(db, {
          id: newId(),
          collectionId: collection.id,
          reporterId,
          reason: input.reason,
          details: input.details,
          status: 'open',
          createdAt: new Date(clock.now()),
        })) ?? null;
      const out = row ?? (await repo.findOpenReport(db, reporterId, collection.id));
      if (!out) throw errors.conflict('The report changed meanwhile; please try again');
      return { report_id: out.id, status: 'open', already_reported: !row, created_at: out.createdAt.getTime() };
    },

    /** Reports, newest first: the open ones, or all with `all`. */
    async reports(opts: { all?: boolean; limit?: number } = {}) {
      const rows = await repo.listReports(db, { all: !!opts.all, limit: opts.limit ?? 100 });
      return rows.map((r) => ({ ...r.report, title: r.title, hidden: r.hidden, reporter: r.reporter }));
    },

    /** The newest audit rows first (at most `limit`, default 50). */
    audit(limit = 50) {
      return repo.listAudit(db, limit);
    },

    /**
     * Takes a collection down (see the module comment); hiding a hidden one again updates its reason
     * and `removeFiles`. With `reportId`, that open report of the collection is resolved in the same
     * transaction. @returns the audit row @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT
     */
    async hide(collectionId: string, input: Operator & { removeFiles?: boolean; reportId?: string }) {
      const op = checkOperator(input);
      return db.transaction(async (tx) => {
        const c = await collections.lock(collectionId, tx);
        if (!c) throw errors.notFound(`No collection ${collectionId}`);
        if (input.reportId) await close(tx, input.reportId, 'resolved', op, c.id);
        const removeFiles = !!input.removeFiles;
        await collections.setTakedown(c.id, { at: new Date(clock.now()), reason: op.reason, filesRemoved: removeFiles }, tx);
        const row = await audit(tx, 'collection.hide', `collection:${c.id}`, op, {
          remove_files: removeFiles,
          report_id: input.reportId ?? null,
          title: c.title,
          owner_id: c.ownerId,
          was_hidden: !!c.hiddenAt,
        });
        await deps.events.append(tx, [
          {
            userId: c.ownerId,
            type: SellerEventType.CollectionHidden,
            key: `collection.hidden:${c.id}:${row.id}`,
            data: { collection_id: c.id, reason: op.reason, files_removed: removeFiles },
          },
        ]);
        return row;
      });
    },

    /** Lifts a takedown. @returns the audit row @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT (not hidden) */
    async unhide(collectionId: string, input: Operator) {
      const op = checkOperator(input);
      return db.transaction(async (tx) => {
        const c = await collections.lock(collectionId, tx);
        if (!c) throw errors.notFound(`No collection ${collectionId}`);
        if (!c.hiddenAt) throw errors.conflict(`Collection ${collectionId} is not hidden`);
        await collections.setTakedown(c.id, null, tx);
        return audit(tx, 'collection.unhide', `collection:${c.id}`, op, {
          title: c.title,
          owner_id: c.ownerId,
          hidden_reason: c.hiddenReason,
          files_removed: c.filesRemoved,
        });
      });
    },

    /**
     * Suspends a user (id, username or email) and revokes their sessions everywhere.
     * @returns the audit row @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT (already suspended)
     */
    async suspend(account: string, input: Operator) {
      const op = checkOperator(input);
      const out = await db.transaction(async (tx) => {
        const user = await repo.lockUser(tx, account);
        if (!user) throw errors.notFound(`No user ${account}`);
        if (user.suspendedAt) throw errors.conflict(`User ${user.username} is already suspended`);
        const now = new Date(clock.now());
        await repo.setSuspension(tx, user.id, { at: now, reason: op.reason });
        const revoked = await repo.revokeSessions(tx, user.id, now);
        // Personal access tokens go with the sessions (ADR 0058): a suspension stops them at once.
        const tokensRevoked = await repo.revokeAccessTokens(tx, user.id, now);
        const row = await audit(tx, 'user.suspend', `user:${user.id}`, op, {
          username: user.username,
          sessions_revoked: revoked,
          tokens_revoked: tokensRevoked,
        });
        return { user, row };
      });
      collections.forget();
      // The database holds the revocation already; the bus makes every instance drop its cached sessions now.
      await revocations.publish({ kind: 'user', userId: out.user.id }).catch(() => undefined);
      return out.row;
    },

    /** Lifts a suspension. @returns the audit row @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT (not suspended) */
    async unsuspend(account: string, input: Operator) {
      const op = checkOperator(input);
      const row = await db.transaction(async (tx) => {
        const user = await repo.lockUser(tx, account);
        if (!user) throw errors.notFound(`No user ${account}`);
        if (!user.suspendedAt) throw errors.conflict(`User ${user.username} is not suspended`);
        await repo.setSuspension(tx, user.id, null);
        return audit(tx, 'user.unsuspend', `user:${user.id}`, op, {
          username: user.username,
          suspended_reason: user.suspendedReason,
        });
      });
      collections.forget();
      return row;
    },

    /**
     * Resolves (action taken) or dismisses (nothing to do) an open report.
     * @returns the audit row @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT (not open)
     */
    async closeReport(reportId: string, status: 'resolved' | 'dismissed', input: Operator) {
      const op = checkOperator(input);
      return db.transaction(async (tx) => {
        const report = await close(tx, reportId, status, op);
        return audit(tx, status === 'resolved' ? 'report.resolve' : 'report.dismiss', `report:${reportId}`, op, {
          collection_id: report.collectionId,
          reporter_id: report.reporterId,
          report_reason: report.reason,
        });
      });
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
