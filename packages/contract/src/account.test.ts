/**
 * account/delete requires the password (docs/decisions/0017-account-delete-requires-password.md:
 * a deliberate deviation from the original call table (product §7.2), which listed it as optional).
 */
import { describe, expect, it } from 'vitest';
import { AccountDeleteRequestSchema } from './account';
import { PasswordMessages } from './password';

describe('AccountDeleteRequestSchema', () => {
  it("refuses a body without a password with 'Password is required'", () => {
    for (const body of [{}, { password: null }, { password: undefined }]) {
      const res = AccountDeleteRequestSchema.safeParse(body);
      expect(res.success, JSON.stringify(body)).toBe(false);
      expect(res.error?.issues[0]?.message).toBe('Password is required');
    }
    expect(PasswordMessages.required).toBe('Password is required');
  });

  it('takes the MD5 hex digest of the password, lower-cased', () => {
    expect(AccountDeleteRequestSchema.parse({ password: 'D41D8CD98F00B204E9800998ECF8427E' })).toEqual({
      password: 'd41d8cd98f00b204e9800998ecf8427e',
    });
    expect(AccountDeleteRequestSchema.safeParse({ password: 'Coffer#2026' }).success).toBe(false);
  });
});
