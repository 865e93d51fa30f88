/**
 * The files of a collection (product §24), shown to every visitor before buying: type icon (or the
 * image's thumbnail), name (-> /resource/{id}), size, a version badge from v2 on with 'Updated {date}',
 * and a 'Preview' badge. Download for the owner and buyers; 'Download preview' for everyone else on
 * preview files. The owner also gets, per file, a preview toggle, Replace (the uploader comes from
 * app/routes through `replaceFile`) and Remove with a confirmation.
 */
import type { Resource } from '@coffer/contract';
import { Eye, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/lazy-dialog';
import { formatDate, formatFileSize } from '@/lib/format';
import { useDownloadPreview } from '../api/download-preview';
import { useRemoveResource, useSetResourcePreview } from '../api/edit-resources';
import { DownloadButton } from './download-button';
import { FileTypeIcon } from './file-icon';

/** The owner's uploader that replaces one file (app/routes/collection-uploads.tsx's ReplaceFile). */
export type ReplaceFileSlot = (target: { collectionId: string; resourceId: string; name: string; onDone: () => void }) => ReactNode;

export interface ResourceListProps {
  resources: Resource[];
  collectionId: string;
  /** The owner or a buyer: every file downloads. */
  canDownload: boolean;
  /** Shows the per-file edit controls. */
  isOwner?: boolean;
  replaceFile?: ReplaceFileSlot;
}

export function ResourceList({ resources, collectionId, canDownload, isOwner = false, replaceFile }: ResourceListProps) {
  if (resources.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">No files yet.</p>;
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label="Files">
      {resources.map((r) => (
        <ResourceRow key={r.id} resource={r} collectionId={collectionId} canDownload={canDownload} isOwner={isOwner} replaceFile={replaceFile} />
      ))}
    </ul>
  );
}

function ResourceRow({
  resource: r,
  collectionId,
  canDownload,
  isOwner,
  replaceFile,
}: {
  resource: Resource;
  collectionId: string;
  canDownload: boolean;
  isOwner: boolean;
  replaceFile?: ReplaceFileSlot;
}) {
  const target = { collectionId, resourceId: r.id, name: r.name };
  const preview = useDownloadPreview();
  const setPreview = useSetResourcePreview();
  const remove = useRemoveResource();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [replacing, setReplacing] = useState(false);

  return (
    <li className="space-y-3 px-4 py-3" data-testid="resource-row">
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
          {r.thumbnail_url ? <img src={r.thumbnail_url} alt="" className="size-full object-cover" loading="lazy" /> : <FileTypeIcon contentType={r.content_type} name={r.name} />}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Link to={`/resource/${r.id}`} className="block min-w-0 max-w-full truncate text-sm font-medium text-slate-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-300" title={r.name}>
              {r.name}
            </Link>
            {r.version > 1 ? (
              <Badge tone="blue" className="tabular-nums">
                v{r.version}
              </Badge>
            ) : null}
            {r.preview ? <Badge tone="brand">Preview</Badge> : null}
            {r.removed ? <Badge tone="zinc">Removed by the seller</Badge> : null}
          </div>
          <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
            {formatFileSize(r.size)}
            {r.updated_at ? ` · Updated ${formatDate(r.updated_at)}` : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {canDownload ? (
            <DownloadButton target={target} />
          ) : r.preview ? (
            <Button variant="outline" size="sm" isLoading={preview.isPending} onClick={() => preview.mutate(target)} aria-label={`Download preview ${r.name}`}>
              {preview.isPending ? null : <Eye className="size-4" aria-hidden="true" />}
              Download preview
            </Button>
          ) : null}
          {isOwner && !r.removed ? (
            <>
              <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-500"
                  checked={r.preview}
                  disabled={setPreview.isPending}
                  onChange={(e) => setPreview.mutate({ ...target, preview: e.target.checked })}
                  aria-label={`Free preview: ${r.name}`}
                />
                Free preview
              </label>
              {replaceFile ? (
                <Button variant="outline" size="sm" onClick={() => setReplacing((v) => !v)} aria-expanded={replacing} aria-label={`Replace ${r.name}`}>
                  <RefreshCw className="size-4" aria-hidden="true" />
                  Replace
                </Button>
              ) : null}
              <Button
                variant="outline"
                size="sm"
                className="text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
                onClick={() => setConfirmRemove(true)}
                aria-label={`Remove ${r.name}`}
              >
                <Trash2 className="size-4" aria-hidden="true" />
                Remove
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {replacing && replaceFile ? replaceFile({ ...target, onDone: () => setReplacing(false) }) : null}
      <Dialog open={confirmRemove} onOpenChange={(o) => !remove.isPending && setConfirmRemove(o)}>
        <DialogContent title="Remove this file?" description={`"${r.name}" will no longer be sold with this collection. Buyers who already bought it keep it.`}>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmRemove(false)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="danger" isLoading={remove.isPending} onClick={() => remove.mutate(target, { onSuccess: () => setConfirmRemove(false) })}>
              Remove file
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </li>
  );
}
