import { useEffect, useState, useSyncExternalStore } from 'react';
import { UploadQueue, type UploadSnapshot } from '../lib/upload-queue';

/**
 * One {@link UploadQueue} for the component's lifetime and its live snapshot.
 * - When the browser comes back online, failed files resume by themselves (list-parts, then only
 *   the missing parts), as the Retry button does.
 * - While files are hashing or uploading, closing or reloading the tab asks for confirmation.
 * - Leaving the page cancels what is still hashing or uploading.
 */
export function useUploadQueue(factory?: () => UploadQueue): { queue: UploadQueue; snapshot: UploadSnapshot } {
  const [queue] = useState(() => (factory ? factory() : new UploadQueue()));
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const active = snapshot.overall.active > 0;

  useEffect(() => {
    const onOnline = () => {
      for (const item of queue.getSnapshot().items) if (item.status === 'failed') queue.retry(item.id);
    };
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      for (const item of queue.getSnapshot().items) queue.cancel(item.id);
    };
  }, [queue]);

  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [active]);

  return { queue, snapshot };
}
