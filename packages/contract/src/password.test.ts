import { describe, expect, it } from 'vitest';
import { confirmPasswordError, PasswordDigestSchema, passwordError } from './password';

describe('password rule (product §5)', () => {
  const rule = 'Password must be 8-16 characters with uppercase, lowercase, numbers and special characters';

  it('requires a password', () => {
    expect(passwordError('')).toBe('Password is required');
    expect(passwordError(undefined)).toBe('Password is required');
  });

  it.each([
    ['Ab1!', 'too short'],
    ['Abcdefgh1!abcdefg', 'too long (17)'],
    ['abcdefg1!', 'no uppercase'],
    ['ABCDEFG1!', 'no lowercase'],
    ['Abcdefgh!', 'no digit'],
    ['Abcdefgh1', 'no special'],
    ['Abcdefg1! ', 'a space is not allowed'],
    ['Abcdefg1!é', 'a non-ASCII letter is not allowed'],
  ])('refuses %s (%s)', (pw) => {
    expect(passwordError(pw)).toBe(rule);
  });

  it.each(['Secret#123', 'Abcdefg1!abcdefg', 'aB3"\\|,.<>/?', "aB3[]{};':", 'aB3-_=+()*&'])('accepts %s', (pw) => {
    expect(passwordError(pw)).toBeNull();
  });

  it('checks the confirmation', () => {
    expect(confirmPasswordError('Secret#123', '')).toBe('Please confirm your password');
    expect(confirmPasswordError('Secret#123', 'Secret#124')).toBe('Passwords do not match');
    expect(confirmPasswordError('Secret#123', 'Secret#123')).toBeNull();
  });

  it('accepts only MD5 hex digests on the wire', () => {
    expect(PasswordDigestSchema.safeParse('Secret#123').success).toBe(false);
    expect(PasswordDigestSchema.parse('9F86D081884C7D659A2FEAA0C55AD015')).toBe('9f86d081884c7d659a2feaa0c55ad015');
  });
});
