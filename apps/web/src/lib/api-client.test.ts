import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/test/server';
import { ApiError, callApi, ErrorMessages, expireSession, getErrorMessage, setSessionExpiredHandler } from './api-client';
import { setAccessToken } from './storage';

const url = '*/api/uc/v1/account/get/me';

function answer(body: unknown, status = 200) {
  server.use(http.post(url, () => HttpResponse.json(body as Record<string, unknown>, { status })));
}

async function failure(): Promise<ApiError> {
  try {
    await callApi('getMe', {});
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('callApi', () => {
  afterEach(() => setSessionExpiredHandler(null));

  it("POSTs JSON to the call's path with the bearer token and returns data when code is 10000", async () => {
    setAccessToken('tok-1');
    let seen: { method: string; auth: string | null; type: string | null; body: unknown } | null = null;
    server.use(
      http.post('*/api/uc/v1/account/profile', async ({ request }) => {
        seen = {
          method: request.method,
          auth: request.headers.get('authorization'),
          type: request.headers.get('content-type'),
          body: await request.json(),
        };
        return HttpResponse.json({ code: 10000, msg: 'success', data: { id: 'u1' } });
      }),
    );
    await expect(callApi('profile', { user_id: 'u1' })).resolves.toEqual({ id: 'u1' });
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer tok-1', type: 'application/json', body: { user_id: 'u1' } });
  });

  it('throws ApiError with code, msg, reason and status when code is not 10000', async () => {
    answer({ code: 10006, msg: 'Username is taken', reason: 'CONFLICT' }, 409);
    const err = await failure();
    expect(err).toMatchObject({
      code: 10006,
      msg: 'Username is taken',
      reason: 'CONFLICT',
      status: 409,
      message: 'Username is taken',
      sessionExpired: false,
    });
  });

  it('treats a 200 answer with another code as a failure, with the generic text when msg is empty', async () => {
    answer({ code: 10001, msg: '' });
    const err = await failure();
    expect(err.code).toBe(10001);
    expect(err.message).toBe(ErrorMessages.business);
  });

  it('maps HTTP statuses to the product §8 messages', async () => {
    answer({ code: 10004, msg: 'nope', reason: 'FORBIDDEN' }, 403);
    expect((await failure()).message).toBe('You do not have permission to perform this action.');
    answer({ code: 10010, msg: 'Internal', reason: 'INTERNAL' }, 500);
    expect((await failure()).message).toBe('Server error. Please try again later.');
    server.use(http.post(url, () => new HttpResponse('<html>', { status: 404, headers: { 'Content-Type': 'text/html' } })));
    expect((await failure()).message).toBe('The requested resource was not found.');
    // Every 404 reads the same, whatever the server's msg (kept on ApiError.msg).
    answer({ code: 10005, msg: 'The collection does not exist', reason: 'NOT_FOUND' }, 404);
    const notFound = await failure();
    expect(notFound.message).toBe('The requested resource was not found.');
    expect(notFound.msg).toBe('The collection does not exist');
    server.use(http.post(url, () => new HttpResponse('teapot', { status: 418 })));
    expect((await failure()).message).toBe('An unexpected error occurred.');
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    server.use(http.post(url, () => HttpResponse.error()));
    const err = await failure();
    expect(err.status).toBe(0);
    expect(err.message).toBeTruthy();
  });
});

describe('session expiry (product §4)', () => {
  let handler: ReturnType<typeof vi.fn<() => void>>;
  let toastError: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-05T12:00:00Z'));
    handler = vi.fn<() => void>();
    setSessionExpiredHandler(handler);
    toastError = vi.spyOn(toast, 'error');
  });
  afterEach(() => {
    vi.useRealTimers();
    setSessionExpiredHandler(null);
  });

  it('handles reason UNAUTHORIZED once per request, even when the status is 401 too', async () => {
    setAccessToken('stale');
    answer({ code: 10002, msg: 'Your session has expired. Please log in again.', reason: 'UNAUTHORIZED' }, 401);
    const err = await failure();
    expect(err.sessionExpired).toBe(true);
    expect(err.message).toBe('Your session has expired. Please log in again.');
    expect(handler).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith('Your session has expired. Please log in again.', expect.anything());
  });

  it('counts reason UNAUTHORIZED in a 200 answer as expiry too', async () => {
    setAccessToken('stale');
    answer({ code: 10002, msg: 'expired', reason: 'UNAUTHORIZED' }, 200);
    expect((await failure()).sessionExpired).toBe(true);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('shows the message at most once per 5 seconds, while every expiry is handled', async () => {
    setAccessToken('stale');
    answer({ code: 10002, msg: 'expired', reason: 'UNAUTHORIZED' }, 401);
    await failure();
    await failure();
    vi.setSystemTime(new Date('2026-03-05T12:00:04.999Z'));
    await failure();
    expect(handler).toHaveBeenCalledTimes(3);
    expect(toastError).toHaveBeenCalledTimes(1);
    vi.setSystemTime(new Date('2026-03-05T12:00:05Z'));
    await failure();
    expect(toastError).toHaveBeenCalledTimes(2);
    expect(handler).toHaveBeenCalledTimes(4);
  });

  it('does not end the session on a bare HTTP 401 without the envelope (§8: nothing extra)', async () => {
    setAccessToken('valid');
    server.use(http.post(url, () => new HttpResponse('Unauthorized', { status: 401 })));
    const err = await failure();
    expect(err.sessionExpired).toBe(false);
    expect(err.message).toBe(ErrorMessages.unexpected);
    expect(handler).not.toHaveBeenCalled();
  });

  it('does not treat UNAUTHORIZED as expiry when no token was sent (a visitor)', async () => {
    answer({ code: 10002, msg: 'Please log in.', reason: 'UNAUTHORIZED' }, 401);
    const err = await failure();
    expect(err.sessionExpired).toBe(false);
    expect(err.message).toBe('Please log in.');
    expect(handler).not.toHaveBeenCalled();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('skips expiry handling when asked (logout)', async () => {
    setAccessToken('stale');
    server.use(
      http.post('*/api/uc/v1/account/logout', () =>
        HttpResponse.json({ code: 10002, msg: 'expired', reason: 'UNAUTHORIZED' }, { status: 401 }),
      ),
    );
    const err = await callApi('logout', {}, { skipSessionExpiry: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).reason).toBe('UNAUTHORIZED');
    expect((err as ApiError).sessionExpired).toBe(false);
    expect(handler).not.toHaveBeenCalled();
  });

  it('expireSession shows a custom message (record missing) under the same throttle', () => {
    expireSession(ErrorMessages.recordMissing);
    expireSession();
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith('User record does not exist. Please log in again.', expect.anything());
    expect(handler).toHaveBeenCalledTimes(2);
  });
});

describe('getErrorMessage', () => {
  it('prefers the error message, else the fallback', () => {
    expect(getErrorMessage(new ApiError({ message: 'Bad', code: 1, msg: 'Bad', status: 400 }), 'Failed to login')).toBe('Bad');
    expect(getErrorMessage(new ApiError({ message: '', code: 1, msg: '', status: 400 }), 'Failed to login')).toBe(
      'Failed to login',
    );
    expect(getErrorMessage('weird', 'Failed to login')).toBe('Failed to login');
  });
});
