/**
 * Reports (product §27): POST /sl/v1/collection/report {collection_id, reason, details}. One open
 * report per reporter and collection: a repeat answers the open one (`already_reported`), and the
 * toast says so. Rate limited per user (429 reads as the server's message).
 */
import type { CollectionReportData } from '@coffer/contract';
import type { ReportReason } from '@coffer/contract/constants';
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';

export const ReportToasts = {
  sent: 'Thanks for your report. Coffer will review this collection.',
  already: 'You already reported this collection. Coffer will review it.',
  failed: 'Failed to send the report',
};

export function reportCollection(input: {
  collectionId: string;
  reason: ReportReason;
  details: string;
}): Promise<CollectionReportData> {
  return callApi('collectionReport', { collection_id: input.collectionId, reason: input.reason, details: input.details });
}

export function useReportCollection() {
  return useMutation({
    mutationFn: reportCollection,
    onSuccess: (data) => toast.success(data.already_reported ? ReportToasts.already : ReportToasts.sent),
    onError: (err) => toastError(err, ReportToasts.failed, 'server'),
  });
}
