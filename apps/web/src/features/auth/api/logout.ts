/**
 * Logout (POST /api/uc/v1/account/logout). product §4: the server is called, but local state is
 * cleared whatever the outcome; then the user goes to /login (product §2).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { callApi } from '@/lib/api-client';
import { clearSessionQueries } from '@/lib/query-client';
import { useAuthStore } from '../stores/auth-store';

export async function logout(): Promise<void> {
  try {
    await callApi('logout', {}, { skipSessionExpiry: true });
  } catch {
    // The session ends locally whatever the server says.
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      useAuthStore.getState().clear();
      clearSessionQueries(queryClient);
      toast.success('Logged out successfully');
      void navigate('/login', { replace: true });
    },
  });
}
