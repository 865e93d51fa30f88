/**
 * Transaction records (product §3 "Transaction record", product §13): the history users see.
 * Flows write a record in the same database transaction as their ledger posting, and move its
 * status as the bill or order moves. Amounts are unsigned bigint minor units (hundredths of a point).
 */
import {
  Direction,
  minorToPoints,
  RecordCate,
  type RecordListData,
  type RecordListRequest,
  type RecordStatus,
  RecordType,
} from '@coffer/contract';
import type { Db, DbOrTx } from '../../db/client';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toPage } from '../../lib/page';
import * as repo from './records.repository';

export interface NewRecord {
  userId: string;
  bizId: string;
  type: RecordType;
  direction: Direction;
  /** Unsigned minor units of points. */
  amount: bigint;
  status: RecordStatus;
  /** Milliseconds; defaults to the database's now(). */
  createdAt?: number;
}

/** The row of a new record: a fresh id; `createdAt` (ms) sets both timestamps when given. */
function toRow(rec: NewRecord) {
  return {
    id: newId(),
    userId: rec.userId,
    bizId: rec.bizId,
    type: rec.type,
    direction: rec.direction,
    amount: rec.amount,
    status: rec.status,
    ...(rec.createdAt ? { createdAt: new Date(rec.createdAt), updatedAt: new Date(rec.createdAt) } : {}),
  };
}

export interface RecordsDeps {
  db: Db;
  /** The collection of each order id (Purchase, Sale and Refund records' `biz_id`), from the orders module. */
  collectionsOfOrders?: (orderIds: string[]) => Promise<Map<string, { id: string; title: string }>>;
}

/** Record types whose `biz_id` is an order. */
const ORDER_TYPES: ReadonlySet<string> = new Set([RecordType.Purchase, RecordType.Sale, RecordType.Refund]);

export function createRecordsService(deps: RecordsDeps) {
  return {
    /**
     * One page of the caller's records (product §7 `record/list`): newest first, `cate` filters by
     * direction (RecordCateIncome: Incoming, RecordCateOutgoing: Outgoing), `status_list` by status
     * (all when empty); `paginator.page` counts from 0. Amounts are points with 2 decimals. The answer
     * carries `count` and the paging fields of product §3 Pagination (see lib/page.ts).
     * @param callerId the signed-in user
     * @throws AppError NOT_FOUND when `user_id` is not the caller (product §14: only one's own data)
     */
    async list(callerId: string, req: RecordListRequest): Promise<RecordListData> {
      if (req.user_id !== callerId) throw errors.notFound();
      const direction =
        req.filter.cate === RecordCate.Income
          ? Direction.Incoming
          : req.filter.cate === RecordCate.Outgoing
            ? Direction.Outgoing
            : undefined;
      const { page, size } = req.paginator;
      const { rows, count } = await repo.listRecords(deps.db, {
        userId: callerId,
        direction,
        statuses: req.filter.status_list,
        offset: page * size,
        limit: size,
      });
      const orderIds = [...new Set(rows.filter((r) => ORDER_TYPES.has(r.type)).map((r) => r.bizId))];
      const titles = orderIds.length && deps.collectionsOfOrders ? await deps.collectionsOfOrders(orderIds) : new Map();
      const items = rows.map((r) => ({
        id: r.id,
        biz_id: r.bizId,
        type: r.type as RecordType,
        direction: r.direction as Direction,
        amount: minorToPoints(r.amount),
        status: r.status as RecordStatus,
        created_at: r.createdAt.getTime(),
        ...(ORDER_TYPES.has(r.type) ? { collection: titles.get(r.bizId) ?? null } : {}),
      }));
      return toPage('records', items, req.paginator, count);
    },

    /**
     * Writes a record unless one exists for (user, type, biz id) — safe to repeat.
     * @param tx the flow's open transaction
     */
    async write(rec: NewRecord, tx?: DbOrTx): Promise<void> {
      await repo.insertRecordIfAbsent(tx ?? deps.db, toRow(rec));
    },

    /**
     * Writes many records in one statement, skipping those that exist for (user, type, biz id) —
     * safe to repeat.
     * @param tx the flow's open transaction
     */
    async writeMany(recs: NewRecord[], tx?: DbOrTx): Promise<void> {
      if (!recs.length) return;
      await repo.insertRecordsIfAbsent(tx ?? deps.db, recs.map(toRow));
    },

    /** Sets the status (and optionally the amount) of the record (user, type, biz id). */
    async setStatus(
      key: { userId: string; type: RecordType; bizId: string },
      status: RecordStatus,
      tx?: DbOrTx,
      patch: { amount?: bigint } = {},
    ): Promise<void> {
      await repo.updateRecord(tx ?? deps.db, key, {
        status,
        updatedAt: new Date(),
        ...(patch.amount !== undefined ? { amount: patch.amount } : {}),
      });
    },
  };
}

export type RecordsService = ReturnType<typeof createRecordsService>;
