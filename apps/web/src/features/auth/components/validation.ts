/**
 * Field checks of the auth forms. Password messages are the exact product §8 texts from the
 * contract; username and email use the contract's schemas, so the server and the form agree.
 */
import { confirmPasswordError, EmailSchema, passwordError, PasswordMessages, UsernameSchema } from '@coffer/contract';

export { confirmPasswordError, passwordError, PasswordMessages };

/** The first message of a failed zod parse, or null. */
function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Invalid value');
}

export function usernameError(value: string): string | null {
  if (!value.trim()) return 'Username is required';
  return firstIssue(UsernameSchema.safeParse(value));
}

export function emailError(value: string): string | null {
  if (!value.trim()) return 'Email is required';
  return firstIssue(EmailSchema.safeParse(value));
}

/** product §5: "A current password is required when changing the password". */
export function currentPasswordError(value: string): string | null {
  return value ? null : PasswordMessages.currentRequired;
}

/** True when no value of `errors` is set. */
export function isValid(errors: Record<string, string | null | undefined>): boolean {
  return Object.values(errors).every((e) => !e);
}
