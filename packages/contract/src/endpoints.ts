/**
 * The endpoint table (docs/decisions/0018-endpoint-table.md): every envelope call of the API, once.
 * Zod-free, so that the web's first screen can import it through `@coffer/contract/constants`; the
 * body and `data` schemas of each call live beside it in `endpoint-schemas.ts` (main entry), under
 * the same key.
 *
 * A key is the call's OpenAPI `operationId` (camelCase). Each entry gives:
 * - `paths`: the full path(s); the first is the one the web calls. Collection and file calls answer
 *   on both `/sl/v1/x` and `/api/sl/v1/x` (product §12), account calls on `/api/uc/v1/account/x`;
 * - `auth`: 'required' (401 UNAUTHORIZED without a valid session), 'optional' (a session is read
 *   when sent) or 'none';
 * - `scope`: the personal access token scope the call needs (`token-scopes.ts`, ADR 0059): a
 *   `coffer_pat_` bearer without it answers 403 INSUFFICIENT_SCOPE; `null` on a signed-in call means
 *   a session only (a token answers 403 INSUFFICIENT_SCOPE too); public calls ('none') read no
 *   credential and carry `null`;
 * - `summary` and `tags` for the OpenAPI document at /api/docs;
 * - `idempotent`: the call creates something or moves points and honours an `Idempotency-Key`
 *   header (docs/api.md "Idempotency keys", docs/decisions/0051-idempotency-keys.md): the first
 *   success is answered again for 24 h to a repeat with the same key and body.
 *
 * Every call is POST with a JSON body and answers `{code: 10000, msg, data}` (product §7).
 */

import type { TokenScope } from './token-scopes';

/** Who may call: 'required' answers 401 without a valid session; 'optional' reads one when sent. */
export type EndpointAuth = 'required' | 'optional' | 'none';

/** One row of {@link ENDPOINTS}. */
export interface EndpointInfo {
  /** Full paths, the web's first; at least one. */
  readonly paths: readonly [string, ...string[]];
  readonly auth: EndpointAuth;
  /** The token scope the call needs; null: a signed-in session only (or, for 'none' calls, no credential at all). */
  readonly scope: TokenScope | null;
  readonly summary: string;
  readonly tags: readonly string[];
  /** Honours `Idempotency-Key` (only on 'required' calls: keys are kept per user). */
  readonly idempotent?: true;
}

/** An account call: `/api/uc/v1/account<p>` (product §7). */
const uc = (p: string) => [`/api/uc/v1/account${p}`] as const;
/** A collection or file call: `/sl/v1<p>`, also answered at `/api/sl/v1<p>` (product §12). */
const sl = (p: string) => [`/sl/v1${p}`, `/api/sl/v1${p}`] as const;

const account = ['account'];
const collections = ['collections'];
const uploads = ['uploads'];
const orders = ['orders'];
const topUp = ['top-up'];
const cashOut = ['cash-out'];
const events = ['events'];
const security = ['security'];
const reviews = ['reviews'];
const developer = ['developer'];

/** Every envelope call, keyed by operationId. Adding a call: a row here, its schemas in `ENDPOINT_SCHEMAS`. */
export const ENDPOINTS = {
  // Account (product §7 account table).
  register: { paths: uc('/register'), auth: 'none', scope: null, tags: account, summary: 'Create an account and sign in' },
  login: { paths: uc('/login'), auth: 'none', scope: null, tags: account, summary: 'Sign in with username or email' },
  sendMail: {
    paths: uc('/send_mail'),
    auth: 'none',
    scope: null,
    tags: account,
    summary: 'Mail a password reset code (answers {} whether or not the email is registered)',
  },
  passwordForget: {
    paths: uc('/password/forget'),
    auth: 'none',
    scope: null,
    tags: account,
    summary: 'Set a new password with a mailed reset code (revokes every session)',
  },
  logout: { paths: uc('/logout'), auth: 'required', scope: null, tags: account, summary: 'Revoke the current session' },
  getMe: { paths: uc('/get/me'), auth: 'required', scope: 'account:read', tags: account, summary: 'The signed-in user' },
  accountNotifications: {
    paths: uc('/notifications'),
    auth: 'required',
    scope: null,
    tags: account,
    summary: "Read or set the caller's notification choices (update mails)",
  },
  assets: { paths: uc('/assets'), auth: 'required', scope: 'wallet:read', tags: account, summary: 'Available and frozen points' },
  profile: { paths: uc('/profile'), auth: 'optional', scope: 'account:read', tags: account, summary: "A user's public profile" },
  accountChange: { paths: uc('/change'), auth: 'required', scope: null, tags: account, summary: 'Change nickname or avatar' },
  passwordChange: {
    paths: uc('/password/change'),
    auth: 'required',
    scope: null,
    tags: account,
    summary: 'Change the password (revokes every session, returns a fresh token)',
  },
  accountDelete: { paths: uc('/delete'), auth: 'required', scope: null, tags: account, summary: 'Delete the account' },
  avatarUrl: { paths: uc('/avatar/url'), auth: 'required', scope: null, tags: account, summary: 'Presigned PUT for an avatar image' },

  // Account security (product §26): two-factor sign-in and sessions.
  loginTwoFactor: {
    paths: uc('/login/2fa'),
    auth: 'none',
    scope: null,
    tags: security,
    summary: 'Finish a sign-in answered TWO_FACTOR_REQUIRED: the challenge and a code (or a recovery code)',
  },
  twoFactorStatus: { paths: uc('/2fa/status'), auth: 'required', scope: null, tags: security, summary: 'Whether two-factor sign-in is on' },
  twoFactorSetup: {
    paths: uc('/2fa/setup'),
    auth: 'required',
    scope: null,
    tags: security,
    summary: 'A new two-factor secret and its otpauth URI (not active until 2fa/enable)',
  },
  twoFactorEnable: {
    paths: uc('/2fa/enable'),
    auth: 'required',
    scope: null,
    tags: security,
    summary: 'Turn two-factor sign-in on with a code; answers the ten recovery codes once',
  },
  twoFactorDisable: {
    paths: uc('/2fa/disable'),
    auth: 'required',
    scope: null,
    tags: security,
    summary: 'Turn two-factor sign-in off with the password and a code',
  },
  sessionList: { paths: uc('/session/list'), auth: 'required', scope: null, tags: security, summary: "The caller's live sessions" },
  sessionRevoke: { paths: uc('/session/revoke'), auth: 'required', scope: null, tags: security, summary: 'Sign out one of the caller\'s sessions' },
  sessionRevokeOthers: {
    paths: uc('/session/revoke/others'),
    auth: 'required',
    scope: null,
    tags: security,
    summary: 'Sign out every session of the caller but this one',
  },

  // Personal access tokens (docs/decisions/0058, 0059): a signed-in session only, never a token.
  tokenCreate: {
    paths: uc('/token/create'),
    auth: 'required',
    scope: null,
    tags: developer,
    summary: 'Create a personal access token (password or two-factor code); the token is answered once',
  },
  tokenList: {
    paths: uc('/token/list'),
    auth: 'required',
    scope: null,
    tags: developer,
    summary: "The caller's live personal access tokens, newest first (never the tokens themselves)",
  },
  tokenRevoke: {
    paths: uc('/token/revoke'),
    auth: 'required',
    scope: null,
    tags: developer,
    summary: 'Revoke one of the caller\'s personal access tokens, on every instance at once',
  },

  // Records (product §7 record/list).
  recordList: {
    paths: uc('/record/list'),
    auth: 'required',
    scope: 'wallet:read',
    tags: ['records'],
    summary: "The caller's transaction records, newest first",
  },

  // Payments shared by top-up and cash-out, and the public configuration.
  currencyList: {
    paths: uc('/currency/list'),
    auth: 'optional',
    scope: 'wallet:read',
    tags: ['top-up', 'cash-out'],
    summary: 'Currencies of the active payment provider (cached 5 minutes)',
  },
  publicConfig: { paths: ['/api/uc/v1/config'], auth: 'none', scope: null, tags: ['config'], summary: 'Public settings the web app reads' },
  /** Registered only when PAYMENTS=sandbox (product §17). */
  sandboxPay: {
    paths: ['/api/dev/sandbox/pay'],
    auth: 'required',
    scope: null,
    tags: ['sandbox'],
    summary: "Sandbox only: pay one of the caller's top-up bills (in full unless currency_amount is given)",
    idempotent: true,
  },
  sandboxClear: {
    paths: ['/api/dev/sandbox/clear'],
    auth: 'required',
    scope: null,
    tags: ['sandbox'],
    summary: "Sandbox only: clear the caller's pending sale proceeds now instead of after the holding period",
  },

  // Top-up (product §7 deposit calls).
  depositMinAmount: {
    paths: uc('/deposit/min-amount'),
    auth: 'optional',
    scope: 'wallet:read',
    tags: topUp,
    summary: 'Minimum top-up in a currency (points, crypto, USD); never cached',
  },
  deposit: { paths: uc('/deposit'), auth: 'required', scope: null, tags: topUp, summary: 'Create a top-up bill', idempotent: true },
  depositBillDetail: {
    paths: uc('/deposit/bill/detail'),
    auth: 'required',
    scope: 'wallet:read',
    tags: topUp,
    summary: "One of the caller's top-up bills",
  },

  // Cash-out (product §7 withdraw calls).
  withdrawEstimateFee: {
    paths: uc('/withdraw/estimate/fee'),
    auth: 'required',
    scope: null,
    tags: cashOut,
    summary: 'Network fee of a cash-out',
  },
  withdrawCreate: {
    paths: uc('/withdraw/create'),
    auth: 'required',
    scope: null,
    tags: cashOut,
    summary: 'Create a cash-out bill (confirmed with the password next)',
    idempotent: true,
  },
  withdrawConfirm: {
    paths: uc('/withdraw/confirm'),
    auth: 'required',
    scope: null,
    tags: cashOut,
    summary: 'Confirm a cash-out with the login password (and a two-factor code when it is on)',
    idempotent: true,
  },
  withdrawBillDetail: {
    paths: uc('/withdraw/bill/detail'),
    auth: 'required',
    scope: null,
    tags: cashOut,
    summary: "One of the caller's cash-out bills",
  },

  // Uploads (product §17).
  bannerUrl: { paths: sl('/create/banner/url'), auth: 'required', scope: 'collections:write', tags: uploads, summary: 'Presigned PUT for a banner image' },
  uploadResourceUrl: {
    paths: sl('/upload/resource/url'),
    auth: 'required',
    scope: 'collections:write',
    tags: uploads,
    summary: 'Single presigned PUT for a small file',
  },
  multipartUpload: { paths: sl('/multipart/upload'), auth: 'required', scope: 'collections:write', tags: uploads, summary: 'Start a multipart upload', idempotent: true },
  uploadPartUrl: { paths: sl('/upload/part/url'), auth: 'required', scope: 'collections:write', tags: uploads, summary: 'Presigned PUT for one part' },
  uploadParts: { paths: sl('/upload/parts'), auth: 'required', scope: 'collections:read', tags: uploads, summary: 'Parts uploaded so far (resume)' },
  completeUpload: {
    paths: sl('/complete/upload'),
    auth: 'required',
    scope: 'collections:write',
    tags: uploads,
    summary: 'Assemble and verify an upload; yields the resource',
  },

  // Collections (product §7 collection and file table, product §17).
  collectionCreate: {
    paths: sl('/collection/create'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Create a collection (status Created)',
    idempotent: true,
  },
  collectionResourceAdd: {
    paths: sl('/collection/resource/add'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Attach an uploaded file',
    idempotent: true,
  },
  collectionPublish: {
    paths: sl('/collection/publish'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Publish (owner, needs a file)',
  },
  collectionReport: {
    paths: sl('/collection/report'),
    auth: 'required',
    scope: null,
    tags: collections,
    summary: 'Report a collection to Coffer (copyright, illegal, spam, other); one open report per collection',
  },
  collectionDelete: {
    paths: sl('/collection/delete'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Soft delete (buyers keep their downloads)',
  },
  myCollections: {
    paths: sl('/my/collections'),
    auth: 'required',
    scope: 'collections:read',
    tags: collections,
    summary: "The caller's collections, newest first",
  },
  collectionDetail: {
    paths: sl('/collection/detail'),
    auth: 'optional',
    scope: 'collections:read',
    tags: collections,
    summary: 'A collection with its files and seller',
  },
  resourceDetail: { paths: sl('/resource/detail'), auth: 'optional', scope: 'collections:read', tags: collections, summary: 'A file with its collection' },
  marketCollections: {
    paths: sl('/market/collections'),
    auth: 'none',
    scope: null,
    tags: collections,
    summary: 'Published collections: search, sort, page',
  },
  userCollections: {
    paths: sl('/user/collections'),
    auth: 'none',
    scope: null,
    tags: collections,
    summary: "A user's published collections",
  },
  creatorDetail: {
    paths: sl('/creator/detail'),
    auth: 'none',
    scope: null,
    tags: collections,
    summary: "A seller's public page: profile, rating over their reviews and a page of their published collections",
  },
  resourceDownloadUrl: {
    paths: sl('/resource/download/url'),
    auth: 'required',
    scope: 'collections:read',
    tags: collections,
    summary: 'Short-lived download URL (owner or buyer)',
  },
  // Catalogue edits, versions and previews (product §24).
  collectionUpdate: {
    paths: sl('/collection/update'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Change title, description, price or banner (owner; orders keep their price)',
  },
  collectionUnpublish: {
    paths: sl('/collection/unpublish'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Published -> Draft (owner; buyers keep access)',
  },
  collectionResourceRemove: {
    paths: sl('/collection/resource/remove'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Remove a file (owner; buyers who bought keep it)',
  },
  collectionResourceReplace: {
    paths: sl('/collection/resource/replace'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'A completed upload becomes the next version of a file (owner; old bytes kept)',
  },
  collectionResourcePreview: {
    paths: sl('/collection/resource/preview'),
    auth: 'required',
    scope: 'collections:write',
    tags: collections,
    summary: 'Mark a file as a free preview, or not (owner)',
  },
  resourcePreviewUrl: {
    paths: sl('/resource/preview/url'),
    auth: 'none',
    scope: null,
    tags: collections,
    summary: 'Short-lived download URL of a free preview file (anyone)',
  },
  myLibraryChanges: {
    paths: sl('/my/library/changes'),
    auth: 'required',
    scope: 'collections:read',
    tags: collections,
    summary: 'Files added, updated or removed in collections the caller bought, after a cursor',
  },

  // Purchases (product §16-§17).
  collectionBuy: { paths: sl('/collection/buy'), auth: 'required', scope: 'orders:write', tags: orders, summary: "The caller's order for a collection", idempotent: true },
  orderPay: {
    paths: uc('/order/pay'),
    auth: 'required',
    scope: 'orders:write',
    tags: orders,
    summary: 'Pay an order (one transaction: ledger, order, records, counters)',
    idempotent: true,
  },
  myOrders: { paths: sl('/my/orders'), auth: 'required', scope: 'orders:read', tags: orders, summary: "The caller's orders, newest first" },
  myPurchasedCollections: {
    paths: sl('/my/purchased/collections'),
    auth: 'required',
    scope: 'orders:read',
    tags: orders,
    summary: 'Collections the caller bought',
  },

  // Refunds and download all (product §25).
  orderRefund: {
    paths: uc('/order/refund'),
    auth: 'required',
    scope: 'sales:write',
    tags: orders,
    summary: "Refund a paid order in full (the collection's seller; one ledger transaction)",
    idempotent: true,
  },
  orderRefundRequest: {
    paths: uc('/order/refund/request'),
    auth: 'required',
    scope: 'orders:write',
    tags: orders,
    summary: 'Ask for a refund (buyer): automatic within 14 days when nothing was downloaded, else waits for the seller',
    idempotent: true,
  },
  orderReport: {
    paths: uc('/order/report'),
    auth: 'required',
    scope: null,
    tags: orders,
    summary: "Report a purchase as not made by you while its proceeds are pending (\"This wasn't me\")",
  },
  mySales: {
    paths: sl('/my/sales'),
    auth: 'required',
    scope: 'sales:read',
    tags: orders,
    summary: "Orders of the caller's collections, with buyer and refund request",
  },
  // Discount codes and licence keys (product §28).
  discountCreate: { paths: sl('/discount/create'), auth: 'required', scope: 'sales:write', tags: orders, summary: 'Create a discount code', idempotent: true },
  discountList: { paths: sl('/discount/list'), auth: 'required', scope: 'sales:read', tags: orders, summary: "The caller's discount codes, newest first" },
  discountDisable: { paths: sl('/discount/disable'), auth: 'required', scope: 'sales:write', tags: orders, summary: 'Disable a discount code' },
  discountPreview: {
    paths: sl('/discount/preview'),
    auth: 'optional',
    scope: 'orders:read',
    tags: orders,
    summary: 'What a discount code takes off a collection',
  },
  licenceSettingsGet: {
    paths: sl('/licence/settings/get'),
    auth: 'required',
    scope: 'sales:read',
    tags: orders,
    summary: "A collection's licence keys settings (owner)",
  },
  licenceSettingsSet: {
    paths: sl('/licence/settings'),
    auth: 'required',
    scope: 'sales:write',
    tags: orders,
    summary: 'Turn licence keys on or off and set the activation limit (owner)',
  },
  licenceValidate: {
    paths: sl('/licence/validate'),
    auth: 'none',
    scope: null,
    tags: orders,
    summary: 'Check a licence key and activate an instance (public, rate limited)',
  },
  collectionDownloadAll: {
    paths: sl('/collection/download/all'),
    auth: 'required',
    scope: 'collections:read',
    tags: collections,
    summary: 'Short-lived URL of a streamed ZIP of every file (owner or buyer)',
  },

  // Reviews and the sales dashboard (product §29).
  reviewUpsert: {
    paths: sl('/review/upsert'),
    auth: 'required',
    scope: 'orders:write',
    tags: reviews,
    summary: "Write or edit the caller's review of a collection they bought",
  },
  reviewList: {
    paths: sl('/review/list'),
    auth: 'optional',
    scope: 'collections:read',
    tags: reviews,
    summary: "A collection's reviews, newest first, with the caller's own",
  },
  reviewReply: { paths: sl('/review/reply'), auth: 'required', scope: 'sales:write', tags: reviews, summary: "The seller's one reply to a review" },
  reviewDelete: { paths: sl('/review/delete'), auth: 'required', scope: 'orders:write', tags: reviews, summary: "Delete the caller's review" },
  mySalesDashboard: {
    paths: sl('/my/sales/dashboard'),
    auth: 'required',
    scope: 'sales:read',
    tags: orders,
    summary: "The seller's sales, earnings, refunds and downloads per UTC day over 7, 30 or 90 days",
  },

  // Proof of liabilities (product §22).
  reservesLatest: {
    paths: ['/api/uc/v1/reserves/latest'],
    auth: 'none',
    scope: null,
    tags: ['reserves'],
    summary: 'The latest proof-of-liabilities publication: root, total, users and the reserves read on chain',
  },
  reservesProof: {
    paths: ['/api/uc/v1/reserves/proof'],
    auth: 'required',
    scope: 'wallet:read',
    tags: ['reserves'],
    summary: "The caller's inclusion proof in the latest publication (verified by the client)",
  },
  // Seller events and webhooks (product §23).
  eventsList: {
    paths: uc('/events/list'),
    auth: 'required',
    scope: 'events:read',
    tags: events,
    summary: "The caller's events after a cursor, oldest first",
  },
  webhookGet: { paths: uc('/webhook/get'), auth: 'required', scope: 'webhooks:read', tags: events, summary: "The caller's webhook endpoint" },
  webhookSet: { paths: uc('/webhook/set'), auth: 'required', scope: 'webhooks:write', tags: events, summary: 'Set or clear the webhook URL' },
  webhookSecretRotate: {
    paths: uc('/webhook/secret/rotate'),
    auth: 'required',
    scope: 'webhooks:write',
    tags: events,
    summary: 'A new webhook signing secret (shown once)',
  },
  webhookSigningKeyRotate: {
    paths: uc('/webhook/signing-key/rotate'),
    auth: 'required',
    scope: 'webhooks:write',
    tags: events,
    summary: 'A new Ed25519 webhook signing key pair (answers the public key)',
  },
  webhookDeliveries: {
    paths: uc('/webhook/deliveries'),
    auth: 'required',
    scope: 'webhooks:read',
    tags: events,
    summary: "The caller's webhook deliveries, newest first",
  },
  webhookRedeliver: { paths: uc('/webhook/redeliver'), auth: 'required', scope: 'webhooks:write', tags: events, summary: 'Deliver one event again', idempotent: true },
} as const satisfies Record<string, EndpointInfo>;

/** The operationId of a call, e.g. 'collectionBuy'. */
export type EndpointKey = keyof typeof ENDPOINTS;

/** Every key of {@link ENDPOINTS}, in table order. */
export const ENDPOINT_KEYS = Object.keys(ENDPOINTS) as EndpointKey[];

/** The path the web calls for `key` (the first of its paths). */
export function endpointPath(key: EndpointKey): string {
  return ENDPOINTS[key].paths[0];
}
