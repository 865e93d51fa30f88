/**
 * Seller events and webhooks (product §23): the cursor feed (events/list), the webhook endpoint
 * (webhook/get, webhook/set, webhook/secret/rotate, webhook/signing-key/rotate) and its deliveries (webhook/deliveries,
 * webhook/redeliver). Query keys sit under the `user` root, so they are dropped on logout.
 */
import type { WebhookSigningScheme } from '@coffer/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { useIdempotentMutation } from '@/lib/idempotency';
import { queryKeys } from '@/lib/query-client';

const eventsKey = [...queryKeys.user, 'events'] as const;
const webhookKey = [...queryKeys.user, 'webhook'] as const;
const deliveriesKey = [...queryKeys.user, 'webhook-deliveries'] as const;

/** Events per feed page. */
export const FEED_PAGE = 20;
/** Deliveries per page. */
export const DELIVERIES_PAGE = 20;

/** The caller's events, oldest first, a page per `fetchNextPage` ("Load more") from the last cursor. */
export function useEventFeed() {
  return useInfiniteQuery({
    queryKey: eventsKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      callApi('eventsList', { ...(pageParam ? { cursor: pageParam } : {}), limit: FEED_PAGE }, { signal }),
    getNextPageParam: (last) => (last.has_more ? last.next_cursor : undefined),
  });
}

/** The caller's webhook endpoint (URL, whether a secret exists). */
export function useWebhook() {
  return useQuery({ queryKey: webhookKey, queryFn: ({ signal }) => callApi('webhookGet', {}, { signal }) });
}

/** The caller's deliveries, newest first, 20 a page. */
export function useDeliveries() {
  return useInfiniteQuery({
    queryKey: deliveriesKey,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      callApi('webhookDeliveries', { paginator: { page: pageParam, size: DELIVERIES_PAGE } }, { signal }),
    getNextPageParam: (last, all) => (last.has_more ? all.length : undefined),
  });
}

/** Sets (or with null clears) the URL; answers the first secret once. */
export function useSetWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (url: string | null) => callApi('webhookSet', { url }),
    onSuccess: (data) => qc.setQueryData(webhookKey, { endpoint: data.endpoint }),
  });
}

/**
 * Sets the signature scheme (hmac, ed25519 or both; ADR 0061), keeping the URL; Coffer makes the
 * Ed25519 key pair when the scheme needs one. Answers a first secret once when none existed.
 */
export function useSetSigning() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { url: string | null; signing: WebhookSigningScheme }) => callApi('webhookSet', v),
    onSuccess: (data) => qc.setQueryData(webhookKey, { endpoint: data.endpoint }),
  });
}

/** A new Ed25519 key pair; the endpoint comes back with the new public key. */
export function useRotateSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callApi('webhookSigningKeyRotate', {}),
    onSuccess: (data) => qc.setQueryData(webhookKey, { endpoint: data.endpoint }),
  });
}

/** A new secret (answered once). */
export function useRotateSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callApi('webhookSecretRotate', {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: webhookKey }),
  });
}

/** Sends one event again. */
export function useRedeliver() {
  const qc = useQueryClient();
  return useIdempotentMutation(
    (eventId: string, idempotencyKey) => callApi('webhookRedeliver', { event_id: eventId }, { idempotencyKey }),
    {
      onSuccess: () => qc.invalidateQueries({ queryKey: deliveriesKey }),
    },
  );
}
