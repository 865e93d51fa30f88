import { CreateCollectionForm } from '@/features/collections/components/create-collection-form';
import type { UploadQueue } from '@/features/uploads/lib/upload-queue';
import { useCollectionFiles } from './collection-uploads';

/**
 * The create screen with its files (features/collections' form, features/uploads' queue).
 * @param makeQueue builds the upload queue (tests pass one with fake hashing and transport)
 */
export function UploadPage({ makeQueue }: { makeQueue?: () => UploadQueue } = {}) {
  const files = useCollectionFiles(makeQueue);
  return <CreateCollectionForm files={files} />;
}

/** /upload — create a collection (guarded; product §2). */
export default function UploadRoute() {
  return <UploadPage />;
}
