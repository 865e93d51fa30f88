/**
 * Thumbnails of image files (product §24): a WebP of at most THUMBNAIL_PX x THUMBNAIL_PX made with
 * sharp from the stored bytes, kept beside the file under `thumbs/`. Best effort: a file sharp cannot
 * read (not an image, damaged, too large) simply has no thumbnail; the file list never depends on it.
 */
import type { StorageProvider } from '../../providers/storage/index';

/** Longest side of a thumbnail, pixels. */
export const THUMBNAIL_PX = 320;
/** Images larger than this (bytes) get no thumbnail: the server reads the whole file into memory. */
export const THUMBNAIL_MAX_SOURCE_BYTES = 25 * 1024 * 1024;
/** Decoded pixels sharp accepts (guards against decompression bombs). */
const MAX_INPUT_PIXELS = 40_000_000;

const THUMBNAIL_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

/** True when a file of this type and size (bytes) gets a thumbnail. */
export function wantsThumbnail(contentType: string, size: number): boolean {
  return THUMBNAIL_TYPES.has(contentType.split(';')[0]!.trim().toLowerCase()) && size <= THUMBNAIL_MAX_SOURCE_BYTES;
}

/**
 * Reads the object at `sourceKey`, writes its thumbnail at `targetKey` (image/webp).
 * @returns true when written; false when sharp could not read the image or storage failed
 */
export async function writeThumbnail(storage: StorageProvider, sourceKey: string, targetKey: string): Promise<boolean> {
  try {
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of await storage.read(sourceKey)) {
      bytes += (chunk as Buffer).length;
      if (bytes > THUMBNAIL_MAX_SOURCE_BYTES) return false;
      chunks.push(chunk as Buffer);
    }
    // Loaded at the first thumbnail (libvips: about 30 MB of memory a server without images never pays).
    const { default: sharp } = await import('sharp');
    const webp = await sharp(Buffer.concat(chunks), { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    await storage.putObject(targetKey, webp, 'image/webp');
    return true;
  } catch {
    return false;
  }
}
