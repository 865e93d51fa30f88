/** Opaque session tokens (product §12): 32 random bytes, base64url; stored as SHA-256 hex. */
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
