/**
 * The owner's controls on a collection page: Publish (Created/Draft), Edit (-> /collection/{id}/edit),
 * Unpublish (Published -> Draft, product §24) and Delete with a confirmation. Adding and replacing
 * files is the uploads feature's, wired in by app/routes/collection.tsx.
 */
import type { Collection } from '@coffer/contract';
import { CollectionStatus } from '@coffer/contract/constants';
import { EyeOff, Pencil, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '@/components/ui/dialog';
import { useDeleteCollection } from '../api/delete-collection';
import { usePublishCollection } from '../api/publish-collection';
import { useUnpublishCollection } from '../api/unpublish-collection';

const EDITABLE: string[] = [CollectionStatus.Created, CollectionStatus.Draft];

export function OwnerActions({ collection, resourceCount }: { collection: Collection; resourceCount: number }) {
  const navigate = useNavigate();
  const publish = usePublishCollection();
  const remove = useDeleteCollection();
  const unpublish = useUnpublishCollection();
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
      {collection.status !== CollectionStatus.Deleted && collection.status !== CollectionStatus.Archived ? (
        <Link
          to={`/collection/${collection.id}/edit`}
          className={buttonVariants({ variant: 'outline', size: 'lg', className: 'w-full' })}
        >
          <Pencil className="size-4" aria-hidden="true" />
          Edit
        </Link>
      ) : null}
      {collection.status === CollectionStatus.Published ? (
        <Button
          variant="outline"
          size="lg"
          className="w-full"
          isLoading={unpublish.isPending}
          onClick={() => unpublish.mutate(collection.id)}
        >
          {unpublish.isPending ? null : <EyeOff className="size-4" aria-hidden="true" />}
          Unpublish
        </Button>
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
