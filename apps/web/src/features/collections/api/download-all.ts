/**
 * Download all (product §25): POST /sl/v1/collection/download/all {collection_id} -> {url,
 * expires_at, file_name} (owner or buyer only; short-lived), then the browser downloads the ZIP the
 * server streams (every file and manifest.json), named after the collection.
 */
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';
import { startBrowserDownload } from './download-resource';

export async function downloadAll(collectionId: string): Promise<{ file_name: string }> {
  const link = await callApi('collectionDownloadAll', { collection_id: collectionId });
  startBrowserDownload(link.url, link.file_name);
  return link;
}

export function useDownloadAll() {
  return useMutation({
    mutationFn: downloadAll,
    onSuccess: (link) => toast.success(`Downloading ${link.file_name}`),
    onError: (err) => toastError(err, 'Failed to download the files'),
  });
}
