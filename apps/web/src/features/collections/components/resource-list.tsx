import type { Resource } from '@coffer/contract';
import { Link } from 'react-router';
import { formatFileSize } from '@/lib/format';
import { DownloadButton } from './download-button';
import { FileTypeIcon } from './file-icon';

/** The files of a collection: type icon, name (-> /resource/{id}), size; Download when the viewer may. */
export function ResourceList({ resources, collectionId, canDownload }: { resources: Resource[]; collectionId: string; canDownload: boolean }) {
  if (resources.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">No files yet.</p>;
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label="Files">
      {resources.map((r) => (
        <li key={r.id} className="flex items-center gap-3 px-4 py-3" data-testid="resource-row">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
            <FileTypeIcon contentType={r.content_type} name={r.name} />
          </span>
          <div className="min-w-0 flex-1">
            <Link to={`/resource/${r.id}`} className="block truncate text-sm font-medium text-slate-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-300" title={r.name}>
              {r.name}
            </Link>
            <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{formatFileSize(r.size)}</p>
          </div>
          {canDownload ? <DownloadButton target={{ collectionId, resourceId: r.id, name: r.name }} /> : null}
        </li>
      ))}
    </ul>
  );
}
