import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ui/page';

/** /collection/:id — collection detail (built in features/collections). */
export default function CollectionRoute() {
  const { id } = useParams();
  return <ComingSoon title="Collection" description={id ? `Collection ${id}` : undefined} />;
}
