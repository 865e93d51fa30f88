import { FolderDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownloadAll } from '../api/download-all';

/**
 * "Download all" (product §25): for the owner and buyers; shows "Preparing ZIP…" while the link is
 * asked for, then the browser saves the ZIP the server streams and a toast names it.
 */
export function DownloadAllButton({ collectionId, fileCount }: { collectionId: string; fileCount: number }) {
  const download = useDownloadAll();
  return (
    <Button
      variant="outline"
      size="sm"
      isLoading={download.isPending}
      disabled={fileCount === 0}
      onClick={() => download.mutate(collectionId)}
    >
      {download.isPending ? null : <FolderDown className="size-4" aria-hidden="true" />}
      {download.isPending ? 'Preparing ZIP…' : 'Download all'}
    </Button>
  );
}
