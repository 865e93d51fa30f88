/**
 * Downloads (product §17): POST /sl/v1/resource/download/url {collection_id, resource_id} ->
 * {url, expires_at} (owner or buyer only; short-lived), then the browser downloads the file under
 * its own name (the server answers it as an attachment with that name).
 */
import { useMutation } from '@tanstack/react-query';
import { callApi, toastError } from '@/lib/api-client';

export interface DownloadTarget {
  collectionId: string;
  resourceId: string;
  /** The file's name, suggested to the browser. */
  name: string;
}

export function getDownloadUrl(collectionId: string, resourceId: string): Promise<{ url: string; expires_at: number }> {
  return callApi('resourceDownloadUrl', { collection_id: collectionId, resource_id: resourceId });
}

/** Starts a browser download of `url` named `name` (a transient `<a download>` click). */
export function startBrowserDownload(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export async function downloadResource(target: DownloadTarget): Promise<void> {
  const { url } = await getDownloadUrl(target.collectionId, target.resourceId);
  startBrowserDownload(url, target.name);
}

export function useDownloadResource() {
  return useMutation({ mutationFn: downloadResource, onError: (err) => toastError(err, 'Failed to download the file') });
}
