import { describe, expect, test } from 'vitest';
import { ApiError, callApi } from '@/lib/api-client';
import { apiFailure, checkMockData, mockApi, MockContractError, takeMockContractErrors } from './mock-api';
import { server } from './server';

describe('mockApi (typed, contract-checked API mocks)', () => {
  test('answers the call at the path the client posts to, with the body typed and the data in a success envelope', async () => {
    const bodies: unknown[] = [];
    server.use(
      mockApi('myLibraryChanges', ({ body, call }) => {
        bodies.push({ body, call });
        return { changes: [], cursor: 'c1', has_more: false };
      }),
    );
    await expect(callApi('myLibraryChanges', { cursor: 'c0' })).resolves.toEqual({ changes: [], cursor: 'c1', has_more: false });
    expect(bodies).toEqual([{ body: { cursor: 'c0' }, call: 1 }]);
  });

  test('a Response is sent as it is: a failure envelope reaches the client as an ApiError', async () => {
    server.use(mockApi('orderReport', () => apiFailure(10009, 'Already cleared', 'CONFLICT', 409)));
    const error = await callApi('orderReport', { order_id: '0190f3a2-0000-7000-8000-000000000001' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 10009, msg: 'Already cleared', reason: 'CONFLICT' });
  });

  test("data the contract's schema refuses is not sent: the call fails and the mismatch is kept for the test's end", async () => {
    // `cursor` is a string in the contract; a mock with null would pass on data the server never sends.
    server.use(mockApi('myLibraryChanges', JSON.parse('{"changes":[],"cursor":null,"has_more":false}')));
    await expect(callApi('myLibraryChanges', {})).rejects.toBeInstanceOf(ApiError);
    const errors = takeMockContractErrors();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MockContractError);
    expect(errors[0]!.message).toMatch(/^mockApi\('myLibraryChanges'\): the data does not match the contract: cursor: /);
  });

  test('checkMockData names each field that does not match and accepts what does', () => {
    expect(() => checkMockData('mySalesDashboard', { nope: 1 })).toThrow(MockContractError);
    takeMockContractErrors();
    const ok = { changes: [], cursor: 'c', has_more: true };
    expect(checkMockData('myLibraryChanges', ok)).toBe(ok);
    expect(takeMockContractErrors()).toEqual([]);
  });
});
