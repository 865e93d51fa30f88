/**
 * The password rule of product §5 with its exact messages (product §8, Auth), shared by the web forms
 * and any server-side check of clear-text passwords (the server itself receives MD5 digests).
 */
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';

export const PasswordMessages = {
  required: 'Password is required',
  rule: 'Password must be 8-16 characters with uppercase, lowercase, numbers and special characters',
  confirmRequired: 'Please confirm your password',
  mismatch: 'Passwords do not match',
  currentRequired: 'Please enter your current password',
  emptyForHash: 'Invalid password: must be a non-empty string',
} as const;

/** product §5: the allowed special characters. */
export const PASSWORD_SPECIALS = `!@#$%^&*()_+-=[]{};':"\\|,.<>/?`;

/** Escapes the characters that are special inside a RegExp character class. */
const escaped = PASSWORD_SPECIALS.replace(/[\\\]^[-]/g, '\\$&');
const allowedRe = new RegExp(`^[A-Za-z0-9${escaped}]+$`);
const specialRe = new RegExp(`[${escaped}]`);

/**
 * Checks a clear-text password against product §5.
 * @returns null when valid, else the exact product §8 message
 */
export function passwordError(password: string | undefined | null): string | null {
  if (!password) return PasswordMessages.required;
  if (
    password.length < PASSWORD_MIN_LENGTH ||
    password.length > PASSWORD_MAX_LENGTH ||
    !allowedRe.test(password) ||
    !/[a-z]/.test(password) ||
    !/[A-Z]/.test(password) ||
    !/[0-9]/.test(password) ||
    !specialRe.test(password)
  ) {
    return PasswordMessages.rule;
  }
  return null;
}

/** Checks a confirmation field against the password. @returns null or the product §8 message. */
export function confirmPasswordError(password: string, confirm: string | undefined | null): string | null {
  if (!confirm) return PasswordMessages.confirmRequired;
  if (confirm !== password) return PasswordMessages.mismatch;
  return null;
}

/** Zod schema of a clear-text password (web forms). */
export const ClearPasswordSchema = z.string().superRefine((value, ctx) => {
  const error = passwordError(value);
  if (error) ctx.addIssue({ code: 'custom', message: error });
});

/** The wire form of a password: the MD5 hex digest (product §5, §12). */
export const PasswordDigestSchema = z
  .string({ error: 'Password is required' })
  .regex(/^[a-fA-F0-9]{32}$/, 'Password must be sent as an MD5 hex digest (32 hex characters)')
  .transform((v) => v.toLowerCase());
