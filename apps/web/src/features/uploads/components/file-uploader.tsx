/**
 * Files of a collection: drag-and-drop or the picker (several at once), then per file the MD5
 * (in the worker) and the upload with its progress bar (bytes, percent, speed), Cancel, Retry
 * (resumes a failed multipart upload) and Remove; an overall bar sums every file.
 */
import { CircleAlert, CircleCheck, FileUp, RotateCcw, Trash2, UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatFileSize } from '@/lib/format';
import type { UploadItem, UploadQueue, UploadSnapshot } from '../lib/upload-queue';
import { formatSpeed, percentOf } from '../lib/upload-progress';
import { ProgressBar } from './progress-bar';

const STATUS_TEXT: Record<UploadItem['status'], string> = {
  queued: 'Waiting',
  hashing: 'Calculating MD5',
  uploading: 'Uploading',
  completing: 'Verifying',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function FileRow({ item, queue, disabled }: { item: UploadItem; queue: UploadQueue; disabled?: boolean }) {
  const hashing = item.status === 'hashing' || (item.status === 'queued' && item.hashedBytes > 0);
  const percent = hashing ? percentOf(item.hashedBytes, item.size) : percentOf(item.uploadedBytes, item.size);
  const active =
    item.status === 'queued' || item.status === 'hashing' || item.status === 'uploading' || item.status === 'completing';
  return (
    <li
      className="rounded-xl border border-slate-200 p-3 dark:border-slate-800"
      data-testid="upload-row"
      data-status={item.status}
    >
      <div className="flex items-start gap-3">
        <div className="mt-0.5 shrink-0 text-slate-400">
          {item.status === 'done' ? (
            <CircleCheck className="size-5 text-emerald-600" aria-hidden="true" />
          ) : item.status === 'failed' ? (
            <CircleAlert className="size-5 text-red-600" aria-hidden="true" />
          ) : (
            <FileUp className="size-5" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex items-baseline justify-between gap-2">
            <p className="min-w-0 truncate text-sm font-medium text-slate-900 dark:text-white" title={item.name}>
              {item.name}
            </p>
            {item.refused ? null : (
              <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400">{percent}%</span>
            )}
          </div>
          {item.refused ? null : (
            <ProgressBar
              className="mt-2"
              value={item.status === 'done' ? 100 : percent}
              label={`${item.name} ${hashing ? 'hashing' : 'upload'} progress`}
              tone={
                item.status === 'done'
                  ? 'green'
                  : item.status === 'failed'
                    ? 'red'
                    : item.status === 'cancelled'
                      ? 'slate'
                      : 'brand'
              }
            />
          )}
          <div className="mt-1.5 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
            <span className="tabular-nums">
              {item.refused ? 'Not uploaded' : STATUS_TEXT[item.status]}
              {item.status === 'uploading' || item.status === 'completing'
                ? ` · ${formatFileSize(item.uploadedBytes)} of ${formatFileSize(item.size)} · ${formatSpeed(item.speed)}`
                : hashing
                  ? ` · ${formatFileSize(item.hashedBytes)} of ${formatFileSize(item.size)}`
                  : ` · ${formatFileSize(item.size)}`}
              {item.mode === 'multipart' && item.partCount > 0 && item.status !== 'done'
                ? ` · part ${item.partsDone}/${item.partCount}`
                : ''}
              {item.partRetries > 0 && item.status !== 'done'
                ? ` · ${item.partRetries} part retr${item.partRetries === 1 ? 'y' : 'ies'}`
                : ''}
            </span>
          </div>
          {item.error ? (
            <p role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
              {item.error}
            </p>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {active ? (
            <Button variant="ghost" size="sm" onClick={() => queue.cancel(item.id)} aria-label={`Cancel ${item.name}`}>
              <X className="size-4" aria-hidden="true" />
              <span className="hidden sm:inline">Cancel</span>
            </Button>
          ) : null}
          {(item.status === 'failed' || item.status === 'cancelled') && !item.refused ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => queue.retry(item.id)}
              aria-label={`Retry ${item.name}`}
              disabled={disabled}
            >
              <RotateCcw className="size-4" aria-hidden="true" />
              <span className="hidden sm:inline">Retry</span>
            </Button>
          ) : null}
          {!active && !disabled ? (
            <Button variant="ghost" size="sm" onClick={() => queue.remove(item.id)} aria-label={`Remove ${item.name}`}>
              <Trash2 className="size-4" aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function FileUploader({
  queue,
  snapshot,
  disabled,
}: {
  queue: UploadQueue;
  snapshot: UploadSnapshot;
  disabled?: boolean;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { items, overall } = snapshot;
  // A file refused before it started (an empty one) says so on its row; it has no bytes in this bar.
  const uploadFailed = items.some((i) => i.status === 'failed' && !i.refused);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const files = Array.from(e.dataTransfer.files ?? []);
    if (files.length) queue.add(files);
  };

  return (
    <div className="space-y-4">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-10 text-center transition-colors',
          dragging ? 'border-brand-500 bg-brand-50 dark:bg-brand-500/10' : 'border-slate-300 dark:border-slate-700',
          disabled && 'opacity-60',
        )}
      >
        <UploadCloud className="size-10 text-slate-400" aria-hidden="true" />
        <p className="mt-3 text-sm font-medium text-slate-900 dark:text-white">Drag and drop files here</p>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          Any file type, several at once. Large files are sent in parts.
        </p>
        <label
          htmlFor={inputId}
          className={cn(
            'mt-4 inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50',
            'focus-within:ring-2 focus-within:ring-brand-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
            disabled && 'pointer-events-none',
          )}
        >
          Choose files
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            disabled={disabled}
            className="sr-only"
            aria-label="Choose files"
            onChange={(e) => {
              const files = Array.from(e.target.files ?? []);
              if (files.length) queue.add(files);
              e.target.value = '';
            }}
          />
        </label>
      </div>

      {items.length > 0 ? (
        <>
          <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-900/60" data-testid="upload-overall">
            <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
              <span className="font-medium text-slate-900 dark:text-white">
                {overall.done} of {overall.files} file{overall.files === 1 ? '' : 's'} uploaded
              </span>
              <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
                {formatFileSize(overall.uploadedBytes)} of {formatFileSize(overall.totalBytes)} · {overall.percent}%
                {overall.speed > 0 ? ` · ${formatSpeed(overall.speed)}` : ''}
              </span>
            </div>
            <ProgressBar
              className="mt-2"
              value={overall.percent}
              label="Overall upload progress"
              tone={uploadFailed ? 'red' : overall.active === 0 && overall.files > 0 ? 'green' : 'brand'}
            />
          </div>
          <ul className="space-y-2" aria-label="Files">
            {items.map((item) => (
              <FileRow key={item.id} item={item} queue={queue} disabled={disabled} />
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
