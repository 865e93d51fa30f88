import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ui/page';

/** /resource/:id — resource detail (built in features/collections). */
export default function ResourceRoute() {
  const { id } = useParams();
  return <ComingSoon title="Resource" description={id ? `Resource ${id}` : undefined} />;
}
