/**
 * App-layer glue between the collection screens (features/collections) and the uploads
 * (features/uploads), which may not import each other: the create form's files, built from an
 * upload queue, the owner's 'Add files' on a collection page and the per-file 'Replace' (a new
 * version of the file, product §24).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { useLeaveWarning } from '@/lib/use-leave-warning';
import { addResourceToCollection } from '@/features/collections/api/add-resource';
import { useReplaceResource } from '@/features/collections/api/edit-resources';
import { collectionKeys } from '@/lib/market-keys';
import type { CollectionFiles } from '@/features/collections/components/create-collection-form';
import { FileUploader } from '@/features/uploads/components/file-uploader';
import { useUploadQueue } from '@/features/uploads/hooks/use-upload-queue';
import type { UploadQueue } from '@/features/uploads/lib/upload-queue';

/**
 * The create form's files: one upload queue for the page's lifetime (see useUploadQueue).
 * @param makeQueue builds the queue (tests pass one with fake hashing and transport)
 */
export function useCollectionFiles(makeQueue?: () => UploadQueue): CollectionFiles {
  const { queue, snapshot } = useUploadQueue(makeQueue);
  return useMemo(() => {
    const failed = (status: string) => status === 'failed' || status === 'cancelled';
    return {
      liveCount: snapshot.items.filter((i) => i.status !== 'cancelled').length,
      failedCount: snapshot.items.filter((i) => failed(i.status)).length,
      refusedCount: snapshot.items.filter((i) => i.refused).length,
      okCount: snapshot.items.filter((i) => !failed(i.status)).length,
      whenSettled: () => queue.whenSettled(),
      eachFinished: (onDone) => {
        const seen = new Set<string>();
        const check = () => {
          for (const item of queue.getSnapshot().items) {
            if (item.status !== 'done' || !item.resource || seen.has(item.id)) continue;
            seen.add(item.id);
            onDone(item);
          }
        };
        const stop = queue.subscribe(check);
        check();
        return stop;
      },
      dropFailed: () => {
        for (const item of queue.getSnapshot().items) if (failed(item.status)) queue.remove(item.id);
      },
      picker: <FileUploader queue={queue} snapshot={snapshot} />,
    };
  }, [queue, snapshot]);
}

/**
 * Upload more files into a collection of one's own. Each file is attached the moment its upload
 * finishes (collection/resource/add, idempotent) and leaves the list with a toast: nothing waits for
 * a button, and a reload loses only what is still uploading (the page warns before that).
 */
export function AddFiles({ collectionId }: { collectionId: string }) {
  const client = useQueryClient();
  const { queue, snapshot } = useUploadQueue();
  /** Resource ids being attached (an effect run must not attach one twice). */
  const attaching = useRef(new Set<string>());
  const [failed, setFailed] = useState<string | null>(null);
  /** Resource ids whose attach failed: kept in the list as uploaded until Try again. */
  const [stuck, setStuck] = useState<string[]>([]);
  const ready = snapshot.items.filter((i) => i.status === 'done' && i.resource && !attaching.current.has(i.resource.id));
  // Uploading, or uploaded and not yet in the collection (being attached, or its attach failed).
  useLeaveWarning(
    snapshot.overall.active > 0 || snapshot.items.some((i) => i.status === 'done'),
    'Files are still uploading or not yet in the collection. Leave this page and lose them?',
  );

  useEffect(() => {
    for (const item of ready) {
      const id = item.resource!.id;
      attaching.current.add(id);
      addResourceToCollection(collectionId, id).then(
        async () => {
          queue.remove(item.id);
          attaching.current.delete(id);
          setFailed(null);
          toast.success(`${item.name} added`, { id: `added-${id}` });
          await client.invalidateQueries({ queryKey: collectionKeys.detail(collectionId) });
        },
        (err: unknown) => {
          // Kept in the list as uploaded; Try again attaches it (never in a loop by itself).
          setStuck((ids) => [...ids, id]);
          setFailed(getErrorMessage(err, 'Failed to add the files'));
          toastError(err, 'Failed to add the files');
        },
      );
    }
  }, [ready, collectionId, queue, client]);

  return (
    <div className="space-y-3">
      <FileUploader queue={queue} snapshot={snapshot} />
      {failed ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-2 text-sm text-red-600 dark:text-red-400">
          <span>{failed}</span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              for (const id of stuck) attaching.current.delete(id);
              setStuck([]);
              setFailed(null);
            }}
          >
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Uploads one file and makes it the next version of `resourceId` (collection/resource/replace).
 * @param onDone called once the file was replaced (closes the row's uploader)
 */
export function ReplaceFile({
  collectionId,
  resourceId,
  name,
  onDone,
}: {
  collectionId: string;
  resourceId: string;
  name: string;
  onDone: () => void;
}) {
  const { queue, snapshot } = useUploadQueue();
  const replace = useReplaceResource();
  const ready = snapshot.items.find((i) => i.status === 'done' && i.resource);
  const busy = snapshot.overall.active > 0;

  function submit() {
    if (!ready?.resource) return;
    replace.mutate(
      { collectionId, resourceId, newResourceId: ready.resource.id },
      {
        onSuccess: () => {
          queue.remove(ready.id);
          onDone();
        },
      },
    );
  }

  return (
    <div
      className="space-y-3 rounded-xl border border-slate-200 p-3 dark:border-slate-800"
      aria-label={`Replace ${name}`}
      role="group"
    >
      <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-400">
        Upload the new version of &ldquo;{name}&rdquo;. Buyers get it as an update; the old version is kept.
      </p>
      <FileUploader queue={queue} snapshot={snapshot} disabled={replace.isPending} />
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={replace.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={!ready || busy} isLoading={replace.isPending}>
          Replace file
        </Button>
      </div>
    </div>
  );
}
