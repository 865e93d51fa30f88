/**
 * Download all (product §25, docs/decisions/0027-refunds-and-download-all.md): every file of a
 * collection as one ZIP, streamed while it is read.
 *
 * - `collection/download/all` (owner, or a buyer with a paid order that was not refunded) answers a
 *   short-lived signed URL of `GET /sl/v1/collection/download/all/zip`; for a buyer it counts one
 *   download per file on their order (a refund request is then no longer automatic).
 * - The GET checks the HMAC signature and expiry, checks the right again (a refund in between takes
 *   it away), and streams a ZIP named after the collection (`Title.zip`, Content-Disposition): the
 *   stored objects one after another (local files or S3 GETs, never two open at once, never the
 *   whole archive in memory), then `manifest.json` with each file's name, size (bytes) and MD5.
 *
 * The URL is signed like local storage's presigned GETs (HMAC-SHA256 over the method, path and
 * parameters, with the same STORAGE_SIGNING_SECRET), whatever the storage provider.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { DOWNLOAD_URL_TTL_SECONDS, ONE_LINE_FORBIDDEN } from '@coffer/contract';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import type { StorageProvider } from '../../providers/storage/index';
import type { CollectionsService, PurchaseLookup } from '../collections/collections.service';
import type { UploadsService } from '../uploads/uploads.service';

/** The GET that streams the archive (registered by downloads.routes.ts). */
export const DOWNLOAD_ALL_PATH = '/sl/v1/collection/download/all/zip';

export interface DownloadsDeps {
  clock: Clock;
  storage: StorageProvider;
  collections: CollectionsService;
  uploads: UploadsService;
  purchases: PurchaseLookup;
  /** The app's public origin (PUBLIC_URL), without a trailing slash. */
  publicUrl: string;
  /** The HMAC secret of signed URLs (storage-signing-secret). */
  secret: string;
}

/** One file of the archive's manifest. */
export interface ManifestEntry {
  /** The name inside the archive (a repeated name gets ` (2)`, ` (3)`... before its extension). */
  name: string;
  /** Bytes. */
  size: number;
  /** Lower-case hex MD5 of the file. */
  md5: string;
}

/**
 * The archive's file name: the collection title without path separators, control or reserved
 * characters, spaces collapsed, at most 100 characters, `collection` when nothing is left; + `.zip`.
 */
export function zipFileName(title: string): string {
  const clean = [...title]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 100)
    .trim();
  return `${clean || 'collection'}.zip`;
}

/** The entry Coffer writes last: no seller file may take its name. */
export const MANIFEST_NAME = 'manifest.json';

/** The characters a one-line field may not hold (contract common.ts), every occurrence. */
const NOT_ONE_LINE = new RegExp(ONE_LINE_FORBIDDEN.source, 'g');

/**
 * A stored file name as a safe ZIP entry name (issue 39, docs/abuse.md "Text"), by the rules of
 * `file_name` (contract collections.ts): no control or bidi character, no path (`/`, `\\` and a
 * leading drive's `:` become `_`), never empty or only dots such as `..` (then `file`). Names checked
 * at upload pass unchanged; this guards rows stored before those rules.
 */
function entryName(name: string): string {
  const clean = name
    .replace(NOT_ONE_LINE, '')
    .replace(/[\\/]/g, '_')
    .replace(/^([A-Za-z]):/, '$1_');
  return /^\.*$/.test(clean) ? 'file' : clean;
}

/** How unzip tools and file systems compare names: Unicode-normalized, case-folded, trailing dots and spaces dropped. */
const sameNameKey = (name: string) => name.normalize('NFC').toLowerCase().replace(/[. ]+$/, '');

/**
 * The archive's entry names for `names`, in order: each made safe ({@link entryName}) and unique
 * (`a.txt`, `a (2).txt`, ... compared by {@link sameNameKey}), and never {@link MANIFEST_NAME}, which a
 * seller's own `manifest.json` would shadow (it becomes `manifest (2).json`).
 */
export function archiveNames(names: string[]): string[] {
  const seen = new Set<string>([sameNameKey(MANIFEST_NAME)]);
  return names.map((raw) => {
    const name = entryName(raw);
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 2; seen.has(sameNameKey(candidate)); n++) candidate = `${stem} (${n})${ext}`;
    seen.add(sameNameKey(candidate));
    return candidate;
  });
}

export function createDownloadsService(deps: DownloadsDeps) {
  const { clock, storage, collections, uploads, purchases } = deps;

  const sign = (collectionId: string, userId: string, expires: number) =>
    createHmac('sha256', deps.secret)
      .update(`GET\n${DOWNLOAD_ALL_PATH}\n${collectionId}\n${userId}\n${expires}`)
      .digest('base64url');

  /** The collection when `userId` is its owner or a paid (not refunded) buyer. @throws NOT_FOUND, FORBIDDEN */
  async function allowed(userId: string, collectionId: string, countFiles: number | null) {
    const c = await collections.find(collectionId);
    if (!c) throw errors.notFound('The collection does not exist');
    // A takedown with its files refuses everyone, owner included (product §27).
    collections.refuseRemovedFiles(c);
    if (c.ownerId === userId) return c;
    const ok =
      countFiles === null ? await purchases.hasPaid(userId, c.id) : await purchases.countDownloads(userId, c.id, countFiles);
    if (!ok) throw errors.forbidden('Buy this collection to download its files.');
    return c;
  }

  /**
   * The files of the archive for `userId` (product §24): the collection's current files, and for a
   * buyer also those removed after they paid (a buyer keeps what they bought). Oldest first.
   */
  async function filesFor(c: { id: string; ownerId: string }, userId: string) {
    const rows = await uploads.resourceRowsOf(c.id);
    if (!rows.some((r) => r.removedAt)) return rows;
    const paid = c.ownerId === userId ? null : ((await purchases.paidOrder(userId, c.id))?.paidAt ?? null);
    return rows.filter((r) => !r.removedAt || (paid !== null && r.removedAt > paid));
  }

  return {
    /**
     * A short-lived URL of the collection's ZIP (DOWNLOAD_URL_TTL_SECONDS). For a buyer it counts a
     * download of every file on their order.
     * @returns url, expires_at (ms) and file_name (`Title.zip`)
     * @throws NOT_FOUND (no such collection), FORBIDDEN (neither owner nor paid buyer), CONFLICT (no files)
     */
    async downloadAllUrl(userId: string, collectionId: string) {
      const c = await collections.find(collectionId);
      if (!c) throw errors.notFound('The collection does not exist');
      const files = await filesFor(c, userId);
      if (!files.length) throw errors.conflict('This collection has no files to download');
      await allowed(userId, c.id, files.length);
      const expires = clock.now() + DOWNLOAD_URL_TTL_SECONDS * 1000;
      const q = new URLSearchParams({ c: c.id, u: userId, e: String(expires), s: sign(c.id, userId, expires) });
      return { url: `${deps.publicUrl}${DOWNLOAD_ALL_PATH}?${q}`, expires_at: expires, file_name: zipFileName(c.title) };
    },

    /**
     * Checks a signed URL's parameters and the right it grants, and opens the archive.
     * @returns the file name and the ZIP stream (it fills while it is read; `abort` stops it)
     * @throws FORBIDDEN (tampered or expired link, or the right is gone), NOT_FOUND
     */
    async openArchive(query: Record<string, unknown>, log: { error: (obj: unknown, msg: string) => void }) {
      const [c0, u, e, s] = ['c', 'u', 'e', 's'].map((k) => (typeof query[k] === 'string' ? (query[k] as string) : ''));
      const expires = Number(e);
      const expected = Buffer.from(sign(c0!, u!, expires));
      const given = Buffer.from(s!);
      if (!c0 || !u || !Number.isFinite(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw errors.forbidden('This link is invalid or has expired');
      }
      if (clock.now() > expires) throw errors.forbidden('This link is invalid or has expired');
      const c = await allowed(u, c0, null);
      const files = await filesFor(c, u!);
      const names = archiveNames(files.map((f) => f.name));
      const manifest: { collection: { id: string; title: string }; files: ManifestEntry[] } = {
        collection: { id: c.id, title: c.title },
        files: files.map((f, i) => ({ name: names[i]!, size: f.size, md5: f.md5 })),
      };

      // Stored entries (no deflate): the files are mostly compressed already and the CPU is shared.
      // archiver (about 20 MB of memory) is loaded at the first download-all.
      const { ZipArchive } = await import('archiver');
      const archive = new ZipArchive({ store: true });
      let stopped = false;
      // The object being copied, closed at once when the client goes away.
      let current: Readable | null = null;
      const fill = async () => {
        try {
          for (const [i, f] of files.entries()) {
            if (stopped) return;
            const body: Readable = await storage.read(f.storageKey);
            if (stopped) {
              body.destroy();
              return;
            }
            current = body;
            archive.append(body, { name: names[i]!, date: f.createdAt });
            // One object open at a time: the next is read once this entry is written.
            await once(archive, 'entry');
          }
          archive.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: MANIFEST_NAME });
          await archive.finalize();
        } catch (err) {
          if (stopped) return;
          log.error({ err, collectionId: c.id }, 'download all: the archive stopped');
          archive.abort();
          archive.destroy(err instanceof Error ? err : new Error(String(err)));
        }
      };
      void fill();
      return {
        fileName: zipFileName(c.title),
        stream: archive as unknown as Readable,
        abort: () => {
          stopped = true;
          current?.destroy();
          archive.abort();
        },
      };
    },
  };
}

export type DownloadsService = ReturnType<typeof createDownloadsService>;
