/**
 * Business constants and limits of product §9 (and the server-side limits of product §10-§20).
 * Durations are in the unit their name says.
 */

/** product §9: session-expired message suppression. */
export const SESSION_EXPIRED_SUPPRESS_MS = 5_000;
/** product §9: deposit order lifetime. */
export const DEPOSIT_ORDER_LIFETIME_SECONDS = 1_800;
/** product §15: an unconfirmed withdrawal expires after 15 minutes. */
export const WITHDRAW_CONFIRM_WINDOW_SECONDS = 900;
/** product §9: close delay after payment confirmed. */
export const PAYMENT_CONFIRMED_CLOSE_DELAY_MS = 3_000;
/** product §9: max file size for hashing (bytes), timeout and memory guard. */
export const MD5_MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MD5_TIMEOUT_MS = 30_000;
export const MD5_MEMORY_GUARD_RATIO = 0.8;
/** product §9: password length. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 16;
/** product §9: records page size, from page 0. Server-side bound (issue): max 100. */
export const RECORDS_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** product §9: collections page size default and options. */
export const COLLECTIONS_PAGE_SIZE = 10;
export const COLLECTIONS_PAGE_SIZE_OPTIONS = [5, 10, 20, 50] as const;
/** product §9: grid. */
export const GRID_MAX_COLUMNS = 4;
export const SKELETON_CARD_COUNT = 8;
/**
 * The storefront's (home, product §17) page sizes; the first is the default. The server answers the
 * default first page inline in the home document (issue 16), so both sides read it here.
 */
export const MARKET_PAGE_SIZES = [12, 24, 48] as const;
/** product §9: toast duration. */
export const TOAST_DURATION_MS = 4_000;
/** product §9: currency list cache. */
export const CURRENCY_LIST_CACHE_MS = 5 * 60_000;
/** product §9: decimals. */
export const USD_DECIMALS = 2;
export const POINTS_DECIMALS = 2;
export const CRYPTO_DECIMALS = 8;
/** product §9 / §13: default points per USDT (and per USD). */
export const DEFAULT_POINTS_PER_USD = 100;
/** product §9: only withdraw currency. */
export const WITHDRAW_ASSET = 'USDT';
/** product §9 "Displayed rate of 1 USD to 1 crypto unit: fixed at 1" (1 USDT counts as 1 USD). */
export const USD_PER_CRYPTO_UNIT = 1;
/** product §9: QR code size in px. */
export const QR_CODE_SIZE_PX = 160;
/** product §9: scroll-load threshold and top bar scroll threshold in px. */
export const SCROLL_LOAD_THRESHOLD_PX = 50;
export const TOP_BAR_SCROLL_THRESHOLD_PX = 10;
/** product §9: file size base. */
export const FILE_SIZE_BASE = 1024;
/** product §9: timestamps above this are milliseconds, otherwise seconds. */
export const MS_TIMESTAMP_THRESHOLD = 1e12;
/** product §12: reset codes: 6 digits, 10 minutes, 5 tries. */
export const RESET_CODE_LENGTH = 6;
export const RESET_CODE_TTL_SECONDS = 600;
export const RESET_CODE_MAX_TRIES = 5;
/** product §16: collection limits. */
export const COLLECTION_TITLE_MAX = 100;
export const COLLECTION_DESC_MAX = 2_000;
/** product §16 / issue: images (banner, avatar) at most 5 MB. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** A content type a banner or avatar may have. */
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];
/** True when `type` (a MIME type as the browser reports it) is one of {@link IMAGE_CONTENT_TYPES}. */
export function isImageContentType(type: string): type is ImageContentType {
  return (IMAGE_CONTENT_TYPES as readonly string[]).includes(type);
}
/** Multipart: every part but the last is at least 5 MiB (S3's rule). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** A buyer's refund request is refunded automatically within this many days of payment (product §25). */
export const REFUND_WINDOW_DAYS = 14;

/**
 * How long a pending order's price stands, seconds (product.md "The price the buyer saw"): the same
 * 1800 s as a deposit order's lifetime (product §9). Past it, pay answers ORDER_EXPIRED ('Order
 * Expired') and the next `collection/buy` quotes the order again at the price shown then.
 */
export const ORDER_QUOTE_TTL_SECONDS = 1800;

/**
 * The msg of an INVALID_CREDENTIALS answer whose password was right but whose two-factor or
 * recovery code was not (product §26; withdraw/confirm checks the password first, then the code):
 * clients show it at the code field rather than the password field.
 */
export const WRONG_CODE_MESSAGE = 'Incorrect code';

/** Default minutes a step-up (password, or code with two-factor on) lets a session spend (STEP_UP_MINUTES). */
export const STEP_UP_MINUTES_DEFAULT = 15;

/** Default days a sale's proceeds stay pending before they clear (EARNINGS_HOLD_DAYS; 0 turns holds off). */
export const EARNINGS_HOLD_DAYS_DEFAULT = 7;
/** Longest refund reason, characters (product §25). */
export const REFUND_REASON_MAX = 500;

/** product §27: why a collection is reported. */
export const REPORT_REASONS = ['copyright', 'illegal', 'spam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** product §27: longest report `details`, characters. */
export const REPORT_DETAILS_MAX = 2_000;
/** product §27: reports one user may send in an hour (per user, shared across instances). */
export const REPORTS_PER_USER_PER_HOUR = 10;
