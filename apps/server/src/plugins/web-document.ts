/**
 * The web app's document (`index.html`), answered per path with what the first screen needs in the
 * same response (issue 16, docs/decisions/0035-first-screen-in-the-document.md):
 *
 * - `theme-init.js` inline: one render-blocking request fewer. Its SHA-256 joins `script-src`
 *   ({@link WebDocument.scriptHashes}), so the CSP still refuses every other inline script. It is
 *   the head's last element: every file below is requested before it runs (ADR 0044).
 * - `<link rel="modulepreload">` for the path's page chunk and the chunks it imports
 *   (`dist/route-preloads.json`, written by the web build): fetched beside the entry, not after it.
 * - On `/` (the storefront's default first page) and `/collection/:id` (as a visitor sees it): the
 *   answer of the public call the page makes first, inline as JSON in
 *   `<script type="application/json" id="coffer-initial-data">` (`[{call, body, data}]`, see
 *   apps/web/src/lib/initial-data.ts), and the first banner preloaded with `fetchpriority=high`, so
 *   the largest image no longer waits for the JavaScript and then for the call.
 *
 *   On `/collection/:id` also the first page of its reviews as a visitor sees them: the section
 *   is below the banner, and its call would otherwise still be out when the first screen is painted
 *   (docs/decisions/0044-first-screen-before-the-font.md).
 * - For a signed-in reader (the document request carries no session): the signed-in calls the page
 *   makes first, as `<script type="application/json" id="coffer-early-calls">` (`[{path, body}]`)
 *   in the head before the inline theme script, which starts them with the token the browser
 *   keeps, before the JavaScript has loaded; the web app's API client takes each response instead
 *   of sending the same call again (docs/decisions/0043-signed-in-first-call-from-the-document.md):
 *   on every page the top bar's user and balance ({@link SIGNED_IN_CALLS}), on `/mycollections`
 *   also its first page ({@link EARLY_CALLS}).
 *
 * The inline answers are the calls' own reads (the same service methods, the same read cache and
 * its bound, encoded by the same response schema); a read that fails leaves the document without
 * them and never fails it. Every document is `no-cache` and compressed per request (br or gzip).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { ENDPOINT_SCHEMAS, endpointPath, type EndpointKey } from '@coffer/contract';
import { COLLECTIONS_PAGE_SIZE, MARKET_PAGE_SIZES, REVIEWS_PAGE_SIZE } from '@coffer/contract/constants';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/errors';

/** One call answered inline: what the web app would have sent (`call`, `body`) and the envelope's `data`. */
export interface InitialCall {
  call: EndpointKey;
  body: Record<string, unknown>;
  data: unknown;
}

/** The public reads a first screen may need, as the calls answer them (`data` of the envelope). */
export interface FirstScreenReads {
  /** `market/collections` with `body` (see {@link MARKET_FIRST_PAGE}). */
  market(body: typeof MARKET_FIRST_PAGE): Promise<unknown>;
  /** `collection/detail` as a visitor (no session) sees it; throws NOT_FOUND like the call. */
  detail(collectionId: string): Promise<unknown>;
  /** `review/list` as a visitor sees it, with `paginator` (see {@link REVIEWS_FIRST_PAGE}). */
  reviews(collectionId: string, paginator: typeof REVIEWS_FIRST_PAGE): Promise<unknown>;
}

/** The storefront's default first page (apps/web storefront: page 0, the first page size, newest first). */
export const MARKET_FIRST_PAGE = { paginator: { page: 0, size: MARKET_PAGE_SIZES[0] }, sort: 'newest' } as const;
/** The reviews section's first page (apps/web reviews-section: page 0, REVIEWS_PAGE_SIZE). */
export const REVIEWS_FIRST_PAGE = { page: 0, size: REVIEWS_PAGE_SIZE } as const;

export interface WebDocument {
  /** CSP sources (`'sha256-…'`) of the inline scripts the documents carry. */
  scriptHashes: string[];
  /** The document for `url` (path and query, as requested), as a string of HTML. */
  render(url: string): Promise<string>;
  /** Sends the document for the request, compressed as the client accepts, `no-cache`. */
  send(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

const THEME_SCRIPT_TAG = '<script src="/theme-init.js"></script>';
/** Where a document's early calls go: just before the inline theme script, which starts them. */
const EARLY_CALLS_MARK = '<!--coffer-early-calls-->';
/**
 * Where a path's preloads go: after the build's own tags (entry script, modulepreload, stylesheet)
 * and before the inline theme script, which moves to the end of the head. Every file the first
 * screen needs is then requested before any inline code runs (ADR 0044).
 */
const PRELOADS_MARK = '<!--coffer-preloads-->';

/**
 * A signed-in call a first screen makes, as the web app sends it (`path`, JSON `body`), and where in
 * the envelope's `data` its answer names the image the screen shows largest (`image`, a dotted path
 * such as `collections.0.banner`): the inline script preloads that image as soon as the answer is in.
 */
export interface EarlyCall {
  path: string;
  body: Record<string, unknown>;
  image?: string;
  /**
   * Body fields taken from the signed-in session the browser keeps: field name -> dotted path into
   * the persisted auth state (`coffer-auth`'s `state`, apps/web auth-store), e.g. `user.id`. A call
   * whose field is not there is not started.
   */
  session?: Record<string, string>;
  /**
   * Dotted paths into the persisted auth state that must hold a value for the call to start (product
   * §6: My Collections is fetched only when a user id exists, not on a token alone).
   */
  requires?: string[];
}

/**
 * The signed-in calls every page makes first, in the top bar: the user (`get/me`, refetched on every
 * load by the layout) and the balance (`account/assets` with the user's id).
 */
export const SIGNED_IN_CALLS: EarlyCall[] = [
  { path: endpointPath('getMe'), body: {} },
  { path: endpointPath('assets'), body: {}, session: { user_id: 'user.id' } },
];

/**
 * The signed-in calls started from the document per path (no query), beside {@link SIGNED_IN_CALLS}:
 * My Collections' first page at the first page size, the call and body `src/app/router.tsx`
 * prefetches for it.
 */
export const EARLY_CALLS: Record<string, EarlyCall[]> = {
  '/mycollections': [
    {
      path: endpointPath('myCollections'),
      body: { paginator: { page: 0, size: COLLECTIONS_PAGE_SIZE } },
      image: 'collections.0.banner',
      requires: ['user.id'],
    },
  ],
};
const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** `"` `&` `<` `>` escaped for an HTML attribute value. */
function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** JSON safe inside a `<script>` element: no `</script>`, no `<!--`, no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `/collection/:id` -> a RegExp matching one path of that shape (`:x` is one non-empty segment). */
function patternOf(route: string): RegExp {
  const source = route
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** A banner worth preloading: an http(s) URL or a same-origin path (never `//host`), no spaces or quotes. */
function preloadableImage(url: unknown): url is string {
  return typeof url === 'string' && /^(https?:\/\/|\/(?!\/))[^\s"'<>]*$/.test(url);
}

/**
 * Loads the built document from `webDist` (index.html, theme-init.js, route-preloads.json).
 * @returns null when there is no built web app (index.html missing)
 */
export function loadWebDocument(webDist: string, reads: FirstScreenReads, log: FastifyBaseLogger): WebDocument | null {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return null;
  let template = readFileSync(indexFile, 'utf8');
  const scriptHashes: string[] = [];
  const themeFile = path.join(webDist, 'theme-init.js');
  if (template.includes(THEME_SCRIPT_TAG) && existsSync(themeFile)) {
    const code = readFileSync(themeFile, 'utf8');
    template = template
      .replace(THEME_SCRIPT_TAG, '')
      .replace('</head>', () => `${PRELOADS_MARK}${EARLY_CALLS_MARK}<script>${code}</script>\n  </head>`);
    scriptHashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  }
  const routes: { pattern: RegExp; files: string[] }[] = [];
  const preloadsFile = path.join(webDist, ROUTE_PRELOADS_FILE);
  if (existsSync(preloadsFile)) {
    const table = JSON.parse(readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>;
    for (const [route, files] of Object.entries(table)) routes.push({ pattern: patternOf(route), files });
  }

  /** The calls answered inline for a path and query, with the image the first screen shows largest. */
  async function firstScreen(pathname: string, search: URLSearchParams): Promise<{ calls: InitialCall[]; image?: string }> {
    try {
      if (pathname === '/' && [...search.keys()].length === 0) {
        const data = z.encode(ENDPOINT_SCHEMAS.marketCollections.data, (await reads.market(MARKET_FIRST_PAGE)) as never) as {
          collections?: { banner?: string }[];
        };
        return {
          calls: [{ call: 'marketCollections', body: { ...MARKET_FIRST_PAGE }, data }],
          image: data.collections?.[0]?.banner,
        };
      }
      const detail = /^\/collection\/([^/]+)$/.exec(pathname);
      if (detail) {
        const body = ENDPOINT_SCHEMAS.collectionDetail.body.safeParse({ collection_id: decodeURIComponent(detail[1]!) });
        // Not an id the call would take: the page shows the call's own error.
        if (!body.success) return { calls: [] };
        const id = body.data.collection_id;
        // The reviews are read beside the collection; a failed reviews read only leaves them out.
        const [detailData, reviewsData] = await Promise.all([
          reads.detail(id),
          reads.reviews(id, REVIEWS_FIRST_PAGE).catch((err: unknown) => {
            if (!(err instanceof AppError)) log.warn({ err, pathname }, 'first-screen reviews read failed');
            return undefined;
          }),
        ]);
        const data = z.encode(ENDPOINT_SCHEMAS.collectionDetail.data, detailData as never) as {
          collection?: { banner?: string };
        };
        const calls: InitialCall[] = [{ call: 'collectionDetail', body: { collection_id: id }, data }];
        if (reviewsData !== undefined) {
          calls.push({
            call: 'reviewList',
            body: { collection_id: id, paginator: { ...REVIEWS_FIRST_PAGE } },
            data: z.encode(ENDPOINT_SCHEMAS.reviewList.data, reviewsData as never),
          });
        }
        return { calls, image: data.collection?.banner };
      }
    } catch (err) {
      // NOT_FOUND and friends: the page asks again and shows the call's own error.
      if (!(err instanceof AppError)) log.warn({ err, pathname }, 'first-screen read failed');
    }
    return { calls: [] };
  }

  async function render(url: string): Promise<string> {
    const parsed = new URL(url, 'http://document.invalid');
    const head: string[] = [];
    const { calls, image } = await firstScreen(parsed.pathname, parsed.searchParams);
    if (preloadableImage(image)) head.push(`<link rel="preload" as="image" href="${attr(image)}" fetchpriority="high">`);
    for (const file of routes.find((r) => r.pattern.test(parsed.pathname))?.files ?? []) {
      head.push(`<link rel="modulepreload" crossorigin href="${attr(file)}">`);
    }
    let html = template.includes(PRELOADS_MARK)
      ? template.replace(PRELOADS_MARK, () => (head.length ? `${head.join('\n    ')}\n    ` : ''))
      : head.length
        ? template.replace('</head>', () => `${head.join('\n    ')}\n  </head>`)
        : template;
    const early = [
      ...SIGNED_IN_CALLS,
      ...([...parsed.searchParams.keys()].length === 0 && Object.hasOwn(EARLY_CALLS, parsed.pathname)
        ? EARLY_CALLS[parsed.pathname]!
        : []),
    ];
    html = html.replace(
      EARLY_CALLS_MARK,
      () => `<script type="application/json" id="coffer-early-calls">${scriptJson(early)}</script>\n    `,
    );
    if (calls.length) {
      html = html.replace(
        '<div id="root"></div>',
        () => `<div id="root"></div>\n    <script type="application/json" id="coffer-initial-data">${scriptJson(calls)}</script>`,
      );
    }
    return html;
  }

  return {
    scriptHashes,
    render,
    async send(req, reply) {
      const body = Buffer.from(await render(req.url), 'utf8');
      const accepts = String(req.headers['accept-encoding'] ?? '');
      reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
      if (/\bbr\b/.test(accepts)) {
        const br = brotliCompressSync(body, {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
        });
        return reply.header('Content-Encoding', 'br').send(br);
      }
      if (/\bgzip\b/.test(accepts)) return reply.header('Content-Encoding', 'gzip').send(gzipSync(body, { level: 6 }));
      return reply.send(body);
    },
  };
}
