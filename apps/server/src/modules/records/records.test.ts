import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { createTestApp, createUser, type TestApp, type TestUser } from '../../test/harness';
import type { NewRecord } from './records.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const LIST = '/api/uc/v1/account/record/list';
const base = Date.UTC(2026, 0, 1);

/** Writes records for `user` with increasing created_at (1 s apart); returns their biz ids in write order. */
async function seed(user: TestUser, specs: Omit<NewRecord, 'userId' | 'bizId' | 'createdAt'>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, spec] of specs.entries()) {
    const bizId = newId();
    ids.push(bizId);
    await t.app.ctx.services.records.write({ ...spec, userId: user.id, bizId, createdAt: base + i * 1_000 });
  }
  return ids;
}

describe('record/list', () => {
  it('lists the caller’s records newest first with the product §3 fields', async () => {
    const user = await createUser(t);
    const [topUp, cashOut] = await seed(user, [
      { type: 'TopUp', direction: 'Incoming', amount: 2_500n, status: 'RecordStatusSuccess' },
      { type: 'CashOut', direction: 'Outgoing', amount: 1_050n, status: 'RecordStatusPending' },
    ]);
    const res = await t.call(LIST, { user_id: user.id }, user.token);
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(2);
    expect(res.body.data.records).toEqual([
      {
        id: expect.any(String),
        biz_id: cashOut,
        type: 'CashOut',
        direction: 'Outgoing',
        amount: '10.50',
        status: 'RecordStatusPending',
        created_at: base + 1_000,
      },
      {
        id: expect.any(String),
        biz_id: topUp,
        type: 'TopUp',
        direction: 'Incoming',
        amount: '25.00',
        status: 'RecordStatusSuccess',
        created_at: base,
      },
    ]);
  });

  it('filters by cate (direction) and status_list, and counts what matches', async () => {
    const user = await createUser(t);
    await seed(user, [
      { type: 'TopUp', direction: 'Incoming', amount: 100n, status: 'RecordStatusSuccess' },
      { type: 'TopUp', direction: 'Incoming', amount: 200n, status: 'RecordStatusFailure' },
      { type: 'Sale', direction: 'Incoming', amount: 300n, status: 'RecordStatusSuccess' },
      { type: 'CashOut', direction: 'Outgoing', amount: 400n, status: 'RecordStatusRefunded' },
      { type: 'Purchase', direction: 'Outgoing', amount: 500n, status: 'RecordStatusSuccess' },
    ]);
    const list = async (filter: object) => (await t.call(LIST, { user_id: user.id, filter }, user.token)).body.data;

    const income = await list({ cate: 'RecordCateIncome' });
    expect(income.count).toBe(3);
    expect(income.records.map((r: { amount: string }) => r.amount)).toEqual(['3.00', '2.00', '1.00']);

    const outgoing = await list({ cate: 'RecordCateOutgoing' });
    expect(outgoing.count).toBe(2);
    expect(outgoing.records.every((r: { direction: string }) => r.direction === 'Outgoing')).toBe(true);

    const all = await list({ cate: 'RecordCateAll' });
    expect(all.count).toBe(5);

    const successIncome = await list({ cate: 'RecordCateIncome', status_list: ['RecordStatusSuccess'] });
    expect(successIncome.records.map((r: { type: string }) => r.type)).toEqual(['Sale', 'TopUp']);
    expect(successIncome.count).toBe(2);

    const failedOrRefunded = await list({ status_list: ['RecordStatusFailure', 'RecordStatusRefunded'] });
    expect(failedOrRefunded.records.map((r: { status: string }) => r.status)).toEqual([
      'RecordStatusRefunded',
      'RecordStatusFailure',
    ]);
    expect(failedOrRefunded.count).toBe(2);
  });

  it('pages from 0 across page boundaries, default size 20, with the total count on every page', async () => {
    const user = await createUser(t);
    const ids = await seed(
      user,
      Array.from({ length: 23 }, (_, i) => ({
        type: 'TopUp' as const,
        direction: 'Incoming' as const,
        amount: BigInt(i + 1),
        status: 'RecordStatusSuccess' as const,
      })),
    );
    const newestFirst = [...ids].reverse();
    const first = (await t.call(LIST, { user_id: user.id }, user.token)).body.data;
    expect(first.count).toBe(23);
    // product §3 Pagination: page (0-based), size, totalCount, totalPages and hasNextPage on every page.
    expect(first).toMatchObject({ page: 0, size: 20, totalCount: 23, totalPages: 2, hasNextPage: true });
    expect(first.records.map((r: { biz_id: string }) => r.biz_id)).toEqual(newestFirst.slice(0, 20));
    const second = (await t.call(LIST, { user_id: user.id, paginator: { page: 1, size: 20 } }, user.token)).body.data;
    expect(second.count).toBe(23);
    expect(second).toMatchObject({ page: 1, size: 20, totalCount: 23, totalPages: 2, hasNextPage: false });
    expect(second.records.map((r: { biz_id: string }) => r.biz_id)).toEqual(newestFirst.slice(20));
    const pagesOf5: string[] = [];
    for (let page = 0; page < 5; page++) {
      const res = (await t.call(LIST, { user_id: user.id, paginator: { page, size: 5 } }, user.token)).body.data;
      pagesOf5.push(...res.records.map((r: { biz_id: string }) => r.biz_id));
    }
    expect(pagesOf5).toEqual(newestFirst);
    const beyond = (await t.call(LIST, { user_id: user.id, paginator: { page: 9, size: 5 } }, user.token)).body.data;
    expect(beyond).toEqual({ records: [], count: 23, page: 9, size: 5, totalCount: 23, totalPages: 5, hasNextPage: false });
  });

  it('answers only the caller’s own records: another user_id is NOT_FOUND', async () => {
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await seed(owner, [{ type: 'TopUp', direction: 'Incoming', amount: 100n, status: 'RecordStatusSuccess' }]);
    const res = await t.call(LIST, { user_id: owner.id }, stranger.token);
    expect(res.status).toBe(404);
    expect(res.body.reason).toBe('NOT_FOUND');
    const own = await t.call(LIST, { user_id: stranger.id }, stranger.token);
    expect(own.body.data).toEqual({ records: [], count: 0, page: 0, size: 20, totalCount: 0, totalPages: 0, hasNextPage: false });
  });

  it('needs a session and a user_id, and refuses bad filters and page sizes', async () => {
    const user = await createUser(t);
    expect((await t.call(LIST, { user_id: user.id })).body.reason).toBe('UNAUTHORIZED');
    const missing = await t.call(LIST, {}, user.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'user_id required' });
    const badCate = await t.call(LIST, { user_id: user.id, filter: { cate: 'Everything' } }, user.token);
    expect(badCate.status).toBe(400);
    expect(badCate.body.reason).toBe('VALIDATION_FAILED');
    const tooBig = await t.call(LIST, { user_id: user.id, paginator: { page: 0, size: 101 } }, user.token);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.msg).toContain('size must be at most 100');
  });
});
