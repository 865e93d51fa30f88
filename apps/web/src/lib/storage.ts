/**
 * Browser storage keys of the session (product §3, "Session (browser)").
 * The access token lives under `accessToken`; the persisted auth state under `coffer-auth`.
 */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const AUTH_STORAGE_KEY = 'coffer-auth';

/** The stored access token, or null (also when storage is unavailable). */
export function getAccessToken(): string | null {
  try {
    return localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores or (with null) removes the access token. */
export function setAccessToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(ACCESS_TOKEN_KEY, token);
    else localStorage.removeItem(ACCESS_TOKEN_KEY);
  } catch {
    /* storage unavailable: the in-memory store still holds the session */
  }
}
