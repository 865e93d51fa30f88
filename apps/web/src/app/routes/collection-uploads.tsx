/**
 * App-layer glue between the collection screens (features/collections) and the uploads
 * (features/uploads), which may not import each other: the create form's files, built from an
 * upload queue, the owner's 'Add files' on a collection page and the per-file 'Replace' (a new
 * version of the file, product §24).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { toastError } from '@/lib/api-client';
import { addResourceToCollection } from '@/features/collections/api/add-resource';
import { useReplaceResource } from '@/features/collections/api/edit-resources';
import { collectionKeys } from '@/features/collections/api/keys';
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
  return useMemo(
    () => ({
      liveCount: snapshot.items.filter((i) => i.status !== 'cancelled').length,
      whenSettled: () => queue.whenSettled(),
      picker: <FileUploader queue={queue} snapshot={snapshot} />,
    }),
    [queue, snapshot],
  );
}

/** Upload more files into an unpublished (or published) collection of one's own. */
export function AddFiles({ collectionId }: { collectionId: string }) {
  const client = useQueryClient();
  const { queue, snapshot } = useUploadQueue();
  const [attaching, setAttaching] = useState(false);
  const ready = snapshot.items.filter((i) => i.status === 'done' && i.resource);
  const busy = snapshot.overall.active > 0;

  async function attach() {
    setAttaching(true);
    try {
      for (const item of ready) {
        await addResourceToCollection(collectionId, item.resource!.id);
        queue.remove(item.id);
      }
      toast.success(`${ready.length} file${ready.length === 1 ? '' : 's'} added`);
      await client.invalidateQueries({ queryKey: collectionKeys.detail(collectionId) });
    } catch (err) {
      toastError(err, 'Failed to add the files');
    } finally {
      setAttaching(false);
    }
  }

  return (
    <div className="space-y-3">
      <FileUploader queue={queue} snapshot={snapshot} disabled={attaching} />
      {snapshot.items.length > 0 ? (
        <div className="flex justify-end">
          <Button onClick={() => void attach()} disabled={ready.length === 0 || busy} isLoading={attaching}>
            Add {ready.length || ''} file{ready.length === 1 ? '' : 's'} to the collection
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
