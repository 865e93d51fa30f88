/**
 * Chooses the storage provider once, at boot, from the validated configuration (product §11, §18):
 * `local` (default) or `s3`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../env';
import type { Clock } from '../../lib/clock';
import { LocalStorage } from './local';
import type { StorageProvider } from './types';

export * from './types';
export { LocalStorage } from './local';

/**
 * The HMAC secret of local presigned URLs: `STORAGE_SIGNING_SECRET`, else a random one generated on
 * first start and kept in `$DATA_DIR/storage-signing-secret` (mode 0600) so URLs survive restarts.
 * Several instances sharing one disk must set STORAGE_SIGNING_SECRET.
 */
export function storageSigningSecret(config: Pick<Config, 'STORAGE_SIGNING_SECRET' | 'dataDir'>): string {
  if (config.STORAGE_SIGNING_SECRET) return config.STORAGE_SIGNING_SECRET;
  const file = path.join(config.dataDir, 'storage-signing-secret');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: generate below
  }
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    // another process wrote it first
    return readFileSync(file, 'utf8').trim();
  }
}

/** Builds the configured provider (the AWS SDK is loaded only for `s3`). */
export async function createStorage(config: Config, clock: Clock): Promise<StorageProvider> {
  if (config.STORAGE === 's3') {
    const { S3Storage } = await import('./s3');
    return new S3Storage({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      clock,
    });
  }
  return new LocalStorage({
    root: path.join(config.dataDir, 'files'),
    publicUrl: config.publicUrl,
    secret: storageSigningSecret(config),
    clock,
  });
}
