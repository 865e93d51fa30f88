import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '../lib/errors';
import { loadWebDocument, MARKET_FIRST_PAGE, REVIEWS_FIRST_PAGE, scriptJson, type FirstScreenReads } from './web-document';

const THEME = "document.documentElement.classList.toggle('dark', false);\n";
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Coffer</title>
    <script src="/theme-init.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;
const COLLECTION_ID = '01a21cac-44d8-7443-b201-a9c6a9d297be';

function collection(overrides: Record<string, unknown> = {}) {
  return {
    id: COLLECTION_ID,
    title: 'Textures',
    desc: 'Sample',
    amount: 50,
    sold_count: 0,
    earned: 0,
    status: 'Published',
    created_at: 1,
    owner_id: '01a21cac-44d8-7443-b201-a9c6a9d29700',
    resource_count: 1,
    rating_sum: 0,
    rating_count: 0,
    banner: 'http://127.0.0.1:8080/media/01a21cac-4827-7334-bf31-b468d8a23476',
    ...overrides,
  };
}

let dir: string;
const log = pino({ level: 'silent' });
const asked: string[] = [];
const reads: FirstScreenReads = {
  async market(body) {
    asked.push(`market ${JSON.stringify(body)}`);
    return {
      collections: [collection(), collection({ id: '01a21cac-44d8-7443-b201-a9c6a9d29701', banner: undefined })],
      count: 2,
      page: 0,
      size: 12,
      totalCount: 2,
      totalPages: 1,
      hasNextPage: false,
    };
  },
  async detail(id) {
    asked.push(`detail ${id}`);
    if (id !== COLLECTION_ID) throw errors.notFound('The collection does not exist');
    return {
      collection: collection({ title: 'Evil </script><script>alert(1)</script>' }),
      resources: [],
      seller: { id: '01a21cac-44d8-7443-b201-a9c6a9d29700', username: 'mira', nickname: 'Mira', avatar: '', created_at: 1 },
      purchased: false,
    };
  },
  async reviews(id, paginator) {
    asked.push(`reviews ${id} ${JSON.stringify(paginator)}`);
    if (id !== COLLECTION_ID) throw errors.notFound('The collection does not exist');
    return {
      reviews: [],
      mine: null,
      can_review: false,
      count: 0,
      page: paginator.page,
      size: paginator.size,
      totalCount: 0,
      totalPages: 0,
      hasNextPage: false,
    };
  },
};

/** The document's early-call list, or null. */
function earlyCalls(html: string): unknown {
  const m = /<script type="application\/json" id="coffer-early-calls">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : null;
}
const SIGNED_IN = [
  { path: '/api/uc/v1/account/get/me', body: {} },
  { path: '/api/uc/v1/account/assets', body: {}, session: { user_id: 'user.id' } },
];

function initialData(html: string): unknown {
  const m = /<script type="application\/json" id="coffer-initial-data">([^<]*)<\/script>/.exec(html);
  return m ? JSON.parse(m[1]!) : null;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'coffer-doc-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'theme-init.js'), THEME);
  writeFileSync(
    path.join(dir, 'route-preloads.json'),
    JSON.stringify({ '/': ['/assets/home-1.js', '/assets/grid-2.js'], '/collection/:id': ['/assets/collection-3.js'] }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('web document', () => {
  it('is absent without a built web app', () => {
    expect(loadWebDocument(path.join(dir, 'missing'), reads, log)).toBeNull();
  });

  it('inlines theme-init.js and gives its exact SHA-256 for script-src', async () => {
    const doc = loadWebDocument(dir, reads, log)!;
    const html = await doc.render('/terms');
    expect(html).toContain(`<script>${THEME}</script>`);
    expect(html).not.toContain('src="/theme-init.js"');
    expect(doc.scriptHashes).toEqual([`'sha256-${createHash('sha256').update(THEME).digest('base64')}'`]);
    // A path without a first screen: no data, no preloads.
    expect(initialData(html)).toBeNull();
    expect(html).not.toContain('modulepreload');
  });

  it('answers / with the storefront first page inline, the first banner preloaded and the page chunks', async () => {
    asked.length = 0;
    const html = await loadWebDocument(dir, reads, log)!.render('/');
    expect(asked).toEqual([`market ${JSON.stringify(MARKET_FIRST_PAGE)}`]);
    const calls = initialData(html) as { call: string; body: unknown; data: { collections: unknown[] } }[];
    expect(calls).toHaveLength(1);
    expect(calls[0]!.call).toBe('marketCollections');
    expect(calls[0]!.body).toEqual({ paginator: { page: 0, size: 12 }, sort: 'newest' });
    expect(calls[0]!.data.collections).toHaveLength(2);
    expect(html).toContain(
      '<link rel="preload" as="image" href="http://127.0.0.1:8080/media/01a21cac-4827-7334-bf31-b468d8a23476" fetchpriority="high">',
    );
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/home-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/grid-2.js">');
    expect(html).not.toContain('/assets/collection-3.js');
    // Every file is requested before any inline code runs: the theme script is the head's last element.
    const theme = html.indexOf(`<script>${THEME}</script>`);
    for (const file of ['/assets/index-abc.js', '/assets/home-1.js', 'rel="preload" as="image"']) {
      expect(html.indexOf(file)).toBeGreaterThan(0);
      expect(html.indexOf(file)).toBeLessThan(theme);
    }
    expect(html.slice(theme).replace(`<script>${THEME}</script>`, '').trim().startsWith('</head>')).toBe(true);
  });

  it("lists the top bar's signed-in calls on every page and My Collections' first call on /mycollections only, before the theme script that starts them", async () => {
    asked.length = 0;
    const doc = loadWebDocument(dir, reads, log)!;
    const html = await doc.render('/mycollections');
    const list =
      '<script type="application/json" id="coffer-early-calls">[{"path":"/api/uc/v1/account/get/me","body":{}},{"path":"/api/uc/v1/account/assets","body":{},"session":{"user_id":"user.id"}},{"path":"/sl/v1/my/collections","body":{"paginator":{"page":0,"size":10}},"image":"collections.0.banner","requires":["user.id"]}]</script>';
    expect(html).toContain(list);
    // In the head, before the inline script that starts it; nothing is read on the server for it.
    expect(html.indexOf(list)).toBeLessThan(html.indexOf(`<script>${THEME}</script>`));
    expect(html.indexOf(list)).toBeLessThan(html.indexOf('</head>'));
    expect(asked).toEqual([]);
    expect(initialData(html)).toBeNull();
    for (const other of ['/', '/terms', '/mycollections?page=2', '/mycollections/x']) {
      const h = await doc.render(other);
      expect(earlyCalls(h)).toEqual(SIGNED_IN);
      expect(h.indexOf('coffer-early-calls')).toBeLessThan(h.indexOf(`<script>${THEME}</script>`));
    }
    // The theme script's hash is unchanged by the list (it is data, not code).
    expect(doc.scriptHashes).toEqual([`'sha256-${createHash('sha256').update(THEME).digest('base64')}'`]);
  });

  it('answers / with a search or another page without data (only the default first page is inline)', async () => {
    asked.length = 0;
    const html = await loadWebDocument(dir, reads, log)!.render('/?q=textures');
    expect(asked).toEqual([]);
    expect(initialData(html)).toBeNull();
    expect(html).toContain('/assets/home-1.js');
  });

  it('answers /collection/:id as a visitor sees it, with its first page of reviews, and its text escaped inside the script', async () => {
    asked.length = 0;
    const html = await loadWebDocument(dir, reads, log)!.render(`/collection/${COLLECTION_ID}`);
    // early calls, theme, entry, initial data: the title cannot close a tag
    expect(html.match(/<\/script>/g)).toHaveLength(4);
    const calls = initialData(html) as { call: string; body: unknown; data: Record<string, any> }[];
    expect(calls.map((c) => c.call)).toEqual(['collectionDetail', 'reviewList']);
    expect(calls[0]!.body).toEqual({ collection_id: COLLECTION_ID });
    expect(calls[0]!.data.collection.title).toBe('Evil </script><script>alert(1)</script>');
    expect(calls[1]!.body).toEqual({ collection_id: COLLECTION_ID, paginator: { page: 0, size: 10 } });
    expect(calls[1]!.data).toMatchObject({ reviews: [], mine: null, can_review: false, totalCount: 0 });
    expect(asked.sort()).toEqual([`detail ${COLLECTION_ID}`, `reviews ${COLLECTION_ID} ${JSON.stringify(REVIEWS_FIRST_PAGE)}`]);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/collection-3.js">');
    expect(html).toContain('rel="preload" as="image"');
  });

  it('leaves the data out for an unknown collection or a malformed id, and does not read for a malformed id', async () => {
    const doc = loadWebDocument(dir, reads, log)!;
    expect(initialData(await doc.render('/collection/01a21cac-44d8-7443-b201-a9c6a9d29799'))).toBeNull();
    asked.length = 0;
    const html = await doc.render('/collection/not-an-id');
    expect(asked).toEqual([]);
    expect(initialData(html)).toBeNull();
    expect(html).toContain('/assets/collection-3.js');
  });

  it('keeps a failing read out of the document instead of failing it', async () => {
    const broken: FirstScreenReads = {
      market: () => Promise.reject(new Error('database down')),
      detail: () => Promise.reject(new Error('database down')),
      reviews: () => Promise.reject(new Error('database down')),
    };
    const html = await loadWebDocument(dir, broken, log)!.render('/');
    expect(initialData(html)).toBeNull();
    expect(html).toContain('<div id="root"></div>');
    // Only the reviews failing: the collection is still inline, the reviews are left out.
    const detailOnly = await loadWebDocument(dir, { ...reads, reviews: broken.reviews }, log)!.render(
      `/collection/${COLLECTION_ID}`,
    );
    expect((initialData(detailOnly) as { call: string }[]).map((c) => c.call)).toEqual(['collectionDetail']);
  });

  it('sends the document no-cache, compressed as the client accepts', async () => {
    const doc = loadWebDocument(dir, reads, log)!;
    const app = Fastify();
    app.get('/*', (req, reply) => doc.send(req, reply));
    try {
      const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toContain('coffer-initial-data');
      const gz = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString('utf8')).toContain('coffer-initial-data');
      const plain = await app.inject({ url: '/' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('coffer-initial-data');
    } finally {
      await app.close();
    }
  });

  it('scriptJson keeps markup and line separators out of the script text', () => {
    const text = scriptJson({ t: '</script><!-- \u2028\u2029' });
    expect(text).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ t: '</script><!-- \u2028\u2029' });
  });
});
