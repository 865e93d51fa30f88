/**
 * POST /api/uc/v1/account/notifications {update_mails?} -> {update_mails} (product §24): reads (empty
 * body) or sets whether the user gets mails about updates to collections they bought.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-client';

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.user, 'notifications'] as const,
    queryFn: ({ signal }) => callApi('accountNotifications', {}, { signal }),
  });

export function useNotifications() {
  return useQuery(notificationsQueryOptions());
}

export function useSetUpdateMails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (updateMails: boolean) => callApi('accountNotifications', { update_mails: updateMails }),
    onSuccess: (data) => {
      client.setQueryData(notificationsQueryOptions().queryKey, data);
      toast.success(data.update_mails ? 'Update mails turned on' : 'Update mails turned off');
    },
    onError: (err) => toastError(err, 'Failed to save the setting'),
  });
}
