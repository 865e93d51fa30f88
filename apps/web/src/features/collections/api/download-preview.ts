/**
 * Free previews (product §24): POST /sl/v1/resource/preview/url {collection_id, resource_id} ->
 * {url, expires_at}, open to anyone (signed out too), then a browser download as for bought files.
 */
import { useMutation } from '@tanstack/react-query';
import { callApi, toastError } from '@/lib/api-client';
import { startBrowserDownload, type DownloadTarget } from './download-resource';

export async function downloadPreview(target: DownloadTarget): Promise<void> {
  const { url } = await callApi('resourcePreviewUrl', { collection_id: target.collectionId, resource_id: target.resourceId });
  startBrowserDownload(url, target.name);
}

export function useDownloadPreview() {
  return useMutation({ mutationFn: downloadPreview, onError: (err) => toastError(err, 'Failed to download the preview') });
}
