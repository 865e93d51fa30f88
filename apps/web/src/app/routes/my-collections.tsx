import { ComingSoon } from '../../components/ui/page';

/** /mycollections — My Collections (guarded; built in features/collections). */
export default function MyCollectionsRoute() {
  return <ComingSoon title="My Collections" description="Manage and track your digital collections, sales, and earnings." />;
}
