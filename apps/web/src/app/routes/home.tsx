import { ComingSoon } from '../../components/ui/page';

/** Home: the storefront of published collections (built in features/collections). */
export default function HomeRoute() {
  return <ComingSoon title="Discover digital resources" description="Browse collections published by creators and buy them with points." />;
}
