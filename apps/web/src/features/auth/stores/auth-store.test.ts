import { describe, expect, it } from 'vitest';
import { testUser } from '@/test/render';
import { useAuthStore } from './auth-store';

describe('auth store (product §3, Session)', () => {
  it("persists only user, token and isAuthenticated under 'coffer-auth', and the token under accessToken", () => {
    useAuthStore.getState().setToken('tok-9');
    useAuthStore.getState().setUser(testUser);
    useAuthStore.getState().setError('Failed to fetch current user');
    useAuthStore.getState().setLoading(true);
    const persisted = JSON.parse(localStorage.getItem('coffer-auth') ?? '{}');
    expect(Object.keys(persisted.state).sort()).toEqual(['isAuthenticated', 'token', 'user']);
    expect(persisted.state).toMatchObject({ token: 'tok-9', isAuthenticated: true, user: { id: testUser.id } });
    expect(localStorage.getItem('accessToken')).toBe('tok-9');
    expect(useAuthStore.getState().assets).toEqual({ available: '12.5', freeze: '0' });
  });

  it('expire sets sessionExpired and clears user, assets and token', () => {
    useAuthStore.getState().setToken('tok-9');
    useAuthStore.getState().setUser(testUser);
    useAuthStore.getState().expire();
    expect(useAuthStore.getState()).toMatchObject({ user: null, assets: null, token: null, isAuthenticated: false, sessionExpired: true });
    expect(localStorage.getItem('accessToken')).toBeNull();
    useAuthStore.getState().clearSessionExpired();
    expect(useAuthStore.getState().sessionExpired).toBe(false);
  });

  it('does not rehydrate a session whose accessToken was removed', async () => {
    useAuthStore.getState().setToken('tok-9');
    useAuthStore.getState().setUser(testUser);
    localStorage.removeItem('accessToken');
    await useAuthStore.persist.rehydrate();
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false });
  });
});
