import { Download } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { useDownloadResource, type DownloadTarget } from '../api/download-resource';

/** 'Download' for one resource: asks for a short-lived URL, then the browser saves the file under its name. */
export function DownloadButton({ target, label = 'Download', ...props }: { target: DownloadTarget; label?: string } & Omit<ButtonProps, 'onClick'>) {
  const download = useDownloadResource();
  return (
    <Button variant="outline" size="sm" isLoading={download.isPending} onClick={() => download.mutate(target)} aria-label={`Download ${target.name}`} {...props}>
      {download.isPending ? null : <Download className="size-4" aria-hidden="true" />}
      {label}
    </Button>
  );
}
