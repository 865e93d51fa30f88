import { ComingSoon } from '../../components/ui/page';

/** /upload — create a collection (guarded; built in features/collections). */
export default function UploadRoute() {
  return <ComingSoon title="Create a collection" description="Upload files, set a price and publish." />;
}
