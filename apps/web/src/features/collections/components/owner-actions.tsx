/**
 * The owner's controls on a collection page: Publish (Created/Draft), Delete with a confirmation,
 * and adding files (uploaded here, then attached with collection/resource/add).
 */
import type { Collection } from '@coffer/contract';
import { CollectionStatus } from '@coffer/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { toastError } from '../../../lib/api-client';
import { useDeleteCollection } from '../api/delete-collection';
import { collectionKeys } from '../api/keys';
import { usePublishCollection } from '../api/publish-collection';
import { addResourceToCollection } from '../api/uploads';
import { useUploadQueue } from '../hooks/use-upload-queue';
import { FileUploader } from './file-uploader';

const EDITABLE: string[] = [CollectionStatus.Created, CollectionStatus.Draft];

export function OwnerActions({ collection, resourceCount }: { collection: Collection; resourceCount: number }) {
  const navigate = useNavigate();
  const publish = usePublishCollection();
  const remove = useDeleteCollection();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const canPublish = EDITABLE.includes(collection.status);
  const deleted = collection.status === CollectionStatus.Deleted;

  return (
    <div className="space-y-3">
      {canPublish ? (
        <Button
          size="lg"
          className="w-full"
          isLoading={publish.isPending}
          disabled={resourceCount === 0}
          onClick={() => publish.mutate(collection.id)}
        >
          {publish.isPending ? null : <Send className="size-4" aria-hidden="true" />}
          Publish
        </Button>
      ) : null}
      {canPublish && resourceCount === 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">Add at least one file to publish.</p>
      ) : null}
      {!deleted ? (
        <Button
          variant="outline"
          size="lg"
          className="w-full text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
          onClick={() => setConfirmDelete(true)}
        >
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </Button>
      ) : null}
      <Dialog open={confirmDelete} onOpenChange={(o) => !remove.isPending && setConfirmDelete(o)}>
        <DialogContent
          title="Delete this collection?"
          description={`"${collection.title}" will be removed from the store. Buyers keep access to what they bought.`}
        >
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmDelete(false)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button
              variant="danger"
              isLoading={remove.isPending}
              onClick={() =>
                remove.mutate(collection.id, {
                  onSuccess: () => {
                    setConfirmDelete(false);
                    void navigate('/mycollections');
                  },
                })
              }
            >
              Delete collection
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
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
