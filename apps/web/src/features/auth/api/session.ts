/**
 * Starting a session from an access token (product §4: "logged out becomes logged in when a login or
 * registration response carries an access token: the token is stored, the user is fetched, a
 * success message is shown").
 */
import type { QueryClient } from '@tanstack/react-query';
import { getMeQueryOptions } from './get-me';
import { useAuthStore } from '../stores/auth-store';

/**
 * Stores the token, then fetches the user into the cache and the store.
 * @throws Error `invalidMessage` when the answer carried no token
 */
export async function startSession(
  queryClient: QueryClient,
  data: { access_token?: string } | null | undefined,
  invalidMessage: string,
) {
  const token = data?.access_token;
  if (!token) throw new Error(invalidMessage);
  const store = useAuthStore.getState();
  store.setToken(token);
  store.setLoading(true);
  try {
    return await queryClient.fetchQuery({ ...getMeQueryOptions(), staleTime: 0 });
  } finally {
    useAuthStore.getState().setLoading(false);
  }
}
