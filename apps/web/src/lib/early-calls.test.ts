/**
 * The signed-in first call started by the document (public/theme-init.js) and taken by the API
 * client (docs/decisions/0043-signed-in-first-call-from-the-document.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { testUser } from '@/test/render';
import { server } from '@/test/server';
import { callApi } from './api-client';
import { setAccessToken } from './storage';

const themeScript = readFileSync(path.resolve(__dirname, '../../public/theme-init.js'), 'utf8');
const BODY = { paginator: { page: 0, size: 10 } };

type Early = { path: string; body: string; token: string; response: Promise<Response | null> };
const early = () => (window as { __cofferEarlyCalls?: Early[] }).__cofferEarlyCalls;

/** Puts the server's list of early calls into the head, as web-document.ts does, and runs the script. */
function runDocumentScript(list: unknown[] | null) {
  document.head.innerHTML = list
    ? `<script type="application/json" id="coffer-early-calls">${JSON.stringify(list)}</script>`
    : '';
  // The same code the server inlines in the document's head.
  new Function(themeScript)();
}

/** Counts the requests msw sees for My Collections and answers each with `data`. */
function myCollections(data: unknown) {
  const seen: { auth: string | null; body: unknown }[] = [];
  server.use(
    http.post('*/sl/v1/my/collections', async ({ request }) => {
      seen.push({ auth: request.headers.get('authorization'), body: await request.json() });
      return HttpResponse.json({ code: 10000, msg: 'success', data });
    }),
  );
  return seen;
}

describe('early signed-in calls', () => {
  afterEach(() => {
    delete (window as { __cofferEarlyCalls?: unknown }).__cofferEarlyCalls;
    document.head.innerHTML = '';
    localStorage.clear();
    setAccessToken(null);
    vi.restoreAllMocks();
  });

  it('the document script starts the listed call with the stored token; the client takes its answer instead of calling again', async () => {
    setAccessToken('tok-early');
    const fetchSpy = vi.spyOn(window, 'fetch');
    const seen = myCollections({ collections: [], count: 0 });
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY }]);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]![0]).toBe('/sl/v1/my/collections');
    expect(early()).toHaveLength(1);

    await expect(callApi('myCollections', BODY)).resolves.toEqual({ collections: [], count: 0 });
    expect(seen).toEqual([{ auth: 'Bearer tok-early', body: BODY }]);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(early()).toHaveLength(0);

    // Taken once: the next call goes to the network.
    await callApi('myCollections', BODY);
    expect(seen).toHaveLength(2);
  });

  it("fills body fields from the stored session (the balance call's user id) and starts no call whose field is missing", async () => {
    setAccessToken('tok-early');
    const seen: unknown[] = [];
    server.use(
      http.post('*/api/uc/v1/account/assets', async ({ request }) => {
        seen.push(await request.json());
        return HttpResponse.json({ code: 10000, msg: 'success', data: { asset: { available: '5', freeze: '0' } } });
      }),
      // The early get/me call that starts on each run of the script: answered, not read here.
      mockApi('getMe', testUser),
    );
    const list = [
      { path: '/api/uc/v1/account/get/me', body: {} },
      { path: '/api/uc/v1/account/assets', body: {}, session: { user_id: 'user.id' } },
    ];
    // No persisted user: only the call without session fields starts.
    runDocumentScript(list);
    expect(early()!.map((c) => [c.path, c.body])).toEqual([['/api/uc/v1/account/get/me', '{}']]);

    localStorage.setItem('coffer-auth', JSON.stringify({ state: { user: { id: 'u-7' }, token: 'tok-early' }, version: 0 }));
    runDocumentScript(list);
    expect(early()!.map((c) => c.body)).toEqual(['{}', '{"user_id":"u-7"}']);
    // The client sends the same body for the balance, so it takes the early answer.
    await expect(callApi('assets', { user_id: 'u-7' })).resolves.toEqual({ asset: { available: '5', freeze: '0' } });
    expect(seen).toEqual([{ user_id: 'u-7' }]);
    expect(early()!.map((c) => c.path)).toEqual(['/api/uc/v1/account/get/me']);
  });

  it('starts a call that requires a user id only when the stored session has one (product §6)', () => {
    setAccessToken('tok-early');
    myCollections({ collections: [], count: 0 });
    const list = [{ path: '/sl/v1/my/collections', body: BODY, requires: ['user.id'] }];
    // A token alone (no persisted user yet): not started.
    runDocumentScript(list);
    expect(early()).toEqual([]);
    localStorage.setItem('coffer-auth', JSON.stringify({ state: { user: { id: 'u-7' }, token: 'tok-early' }, version: 0 }));
    runDocumentScript(list);
    expect(early()!.map((c) => [c.path, c.body])).toEqual([['/sl/v1/my/collections', JSON.stringify(BODY)]]);
  });

  it('preloads the image the list names in the early answer, before the page renders it; none for an error or a path that is not a URL', async () => {
    setAccessToken('tok-early');
    const banner = 'http://127.0.0.1:8080/media/01a21cac-4827-7334-bf31-b468d8a23476';
    myCollections({ collections: [{ banner }, { banner: '/media/2' }], count: 2 });
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY, image: 'collections.0.banner' }]);
    await early()![0]!.response;
    await vi.waitFor(() => expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(1));
    const link = document.head.querySelector('link[rel="preload"]')!;
    expect([link.getAttribute('as'), link.getAttribute('href'), link.getAttribute('fetchpriority')]).toEqual([
      'image',
      banner,
      'high',
    ]);
    // The client still reads the whole answer (the preload read a clone).
    await expect(callApi('myCollections', BODY)).resolves.toEqual({
      collections: [{ banner }, { banner: '/media/2' }],
      count: 2,
    });

    for (const data of [{ collections: [] }, { collections: [{ banner: 'javascript:alert(1)' }] }]) {
      document.head.innerHTML = '';
      myCollections(data);
      runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY, image: 'collections.0.banner' }]);
      await early()![0]!.response;
      await new Promise((r) => setTimeout(r, 20));
      expect(document.head.querySelector('link[rel="preload"]')).toBeNull();
    }
  });

  it('starts nothing without a stored token, or without a list', () => {
    const fetchSpy = vi.spyOn(window, 'fetch');
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY }]);
    setAccessToken('tok-early');
    runDocumentScript(null);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(early()).toBeUndefined();
  });

  it('a call with another body or another token is sent itself; the early answer stays for its own call', async () => {
    setAccessToken('tok-early');
    const seen = myCollections({ collections: [], count: 0 });
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY }]);
    await callApi('myCollections', { paginator: { page: 1, size: 10 } });
    setAccessToken('tok-other');
    await callApi('myCollections', BODY);
    expect(early()).toHaveLength(1);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer tok-early', 'Bearer tok-early', 'Bearer tok-other']);
  });

  it('a call aborted while the early answer is still out rejects with AbortError at once (it does not wait for that answer)', async () => {
    setAccessToken('tok-early');
    // The early request never answers (a server that hangs).
    vi.spyOn(window, 'fetch').mockImplementationOnce(() => new Promise<Response>(() => undefined));
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY }]);
    vi.restoreAllMocks();
    const controller = new AbortController();
    const call = callApi('myCollections', BODY, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(early()).toHaveLength(0);
  });

  it('an early request that failed leaves the call to the client', async () => {
    setAccessToken('tok-early');
    const seen = myCollections({ collections: [], count: 3 });
    vi.spyOn(window, 'fetch').mockRejectedValueOnce(new TypeError('offline'));
    runDocumentScript([{ path: '/sl/v1/my/collections', body: BODY }]);
    vi.restoreAllMocks();
    await expect(callApi('myCollections', BODY)).resolves.toEqual({ collections: [], count: 3 });
    expect(seen).toHaveLength(1);
  });
});
