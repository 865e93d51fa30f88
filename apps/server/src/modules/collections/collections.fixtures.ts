/**
 * Test factories for collections, uploads and purchases, driven through the API (STYLE habit 8).
 * Presigned local URLs are absolute (`PUBLIC_URL`); they are injected into the app by path + query.
 */
import { createHash } from 'node:crypto';
import type { TestApp, TestUser } from '../../test/harness';

export const md5hex = (b: Buffer | string): string => createHash('md5').update(b).digest('hex');

/** A 1x1 PNG (real magic bytes). */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Path + query of an absolute presigned URL, for `app.inject`. */
export const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** PUTs `body` to a local presigned URL through the app. */
export async function put(t: TestApp, url: string, body: Buffer, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'PUT',
    url: pathOf(url),
    payload: body,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
}

/** GETs a local presigned URL through the app. */
export async function get(t: TestApp, url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: pathOf(url), headers });
}

/** Calls that must succeed; throws with the envelope otherwise. */
export async function ok<T = any>(t: TestApp, url: string, body: unknown, token?: string): Promise<T> {
  const res = await t.call<T>(url, body, token);
  if (res.body.code !== 10000) throw new Error(`${url} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Uploads `data` with the single-PUT path; @returns the resource. */
export async function uploadSingle(t: TestApp, user: TestUser, data: Buffer, fileName = 'notes.txt', contentType = 'text/plain') {
  const start = await ok(
    t,
    '/sl/v1/upload/resource/url',
    { file_name: fileName, size: data.length, md5: md5hex(data), content_type: contentType },
    user.token,
  );
  const res = await put(t, start.url, data);
  if (res.statusCode !== 200) throw new Error(`PUT failed: ${res.statusCode} ${res.body}`);
  return ok(t, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }, user.token);
}

/** Creates a collection with one file and publishes it; @returns the published collection. */
export async function publishedCollection(t: TestApp, owner: TestUser, amount = 10, title = 'Pack') {
  const c = await ok(t, '/sl/v1/collection/create', { title, desc: `${title} description`, amount }, owner.token);
  const r = await uploadSingle(t, owner, Buffer.from(`contents of ${title} ${c.id}`));
  await ok(t, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, owner.token);
  const published = await ok(t, '/sl/v1/collection/publish', { collection_id: c.id }, owner.token);
  return { ...published, resource: r };
}

/** collection/buy then account/order/pay; @returns the pay envelope. */
export async function buyAndPay(t: TestApp, buyer: TestUser, collectionId: string) {
  const buy = await t.call('/sl/v1/collection/buy', { collection_id: collectionId }, buyer.token);
  if (buy.body.code !== 10000) return buy;
  return t.call('/api/uc/v1/account/order/pay', { order_id: buy.body.data.id }, buyer.token);
}
