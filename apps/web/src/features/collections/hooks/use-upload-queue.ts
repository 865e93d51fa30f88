import { useEffect, useState, useSyncExternalStore } from 'react';
import { UploadQueue, type UploadSnapshot } from '../lib/upload-queue';

/**
 * One {@link UploadQueue} for the component's lifetime and its live snapshot. Leaving the page
 * cancels what is still hashing or uploading.
 */
export function useUploadQueue(factory?: () => UploadQueue): { queue: UploadQueue; snapshot: UploadSnapshot } {
  const [queue] = useState(() => (factory ? factory() : new UploadQueue()));
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  useEffect(
    () => () => {
      for (const item of queue.getSnapshot().items) queue.cancel(item.id);
    },
    [queue],
  );
  return { queue, snapshot };
}
