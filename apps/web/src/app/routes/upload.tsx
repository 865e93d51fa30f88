import { CreateCollectionForm } from '../../features/collections/components/create-collection-form';

/** /upload — create a collection (guarded; SPEC 2). */
export default function UploadRoute() {
  return <CreateCollectionForm />;
}
