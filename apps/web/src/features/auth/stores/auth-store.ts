/**
 * The session in the browser (product §3 "Session (browser)", product §4 "Session").
 *
 * State: user, assets, token, isAuthenticated, isLoading, error, sessionExpired. Only user, token
 * and isAuthenticated persist, under `coffer-auth`; the token is also kept under `accessToken`
 * in localStorage, where the API client reads it.
 */
import type { User } from '@coffer/contract';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { AUTH_STORAGE_KEY, getAccessToken, setAccessToken } from '@/lib/storage';

export interface Assets {
  available: string;
  freeze?: string;
}

export interface AuthState {
  user: User | null;
  assets: Assets | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
  sessionExpired: boolean;
  /** Starts a session with a fresh access token (login, register, password change). */
  setToken: (token: string) => void;
  /** Stores the current user (and its asset pair as `assets`). */
  setUser: (user: User) => void;
  setAssets: (assets: Assets) => void;
  setLoading: (isLoading: boolean) => void;
  setError: (error: string | null) => void;
  /** Clears the session (logout, account deletion). */
  clear: () => void;
  /** product §4: sets sessionExpired and clears user and token; call `clearSessionExpired` after redirecting. */
  expire: () => void;
  clearSessionExpired: () => void;
}

const signedOut = { user: null, assets: null, token: null, isAuthenticated: false, isLoading: false, error: null } as const;

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...signedOut,
      sessionExpired: false,
      setToken: (token) => {
        setAccessToken(token);
        set({ token, isAuthenticated: true, error: null, sessionExpired: false });
      },
      setUser: (user) => set({ user, assets: { available: user.asset.available, freeze: user.asset.freeze }, isAuthenticated: true }),
      setAssets: (assets) => set({ assets }),
      setLoading: (isLoading) => set({ isLoading }),
      setError: (error) => set({ error }),
      clear: () => {
        setAccessToken(null);
        set({ ...signedOut });
      },
      expire: () => {
        setAccessToken(null);
        set({ ...signedOut, sessionExpired: true });
      },
      clearSessionExpired: () => set({ sessionExpired: false }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ user: state.user, token: state.token, isAuthenticated: state.isAuthenticated }),
      // The token under `accessToken` is what the API client sends; a persisted state without it
      // (cleared elsewhere, another tab logged out) is not a session.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<AuthState>;
        const token = getAccessToken() ?? null;
        if (!p.token || !token) return { ...current, user: null, token: null, isAuthenticated: false };
        return { ...current, user: p.user ?? null, token, isAuthenticated: Boolean(p.isAuthenticated) };
      },
    },
  ),
);
