import { ComingSoon } from '../../../components/ui/page';

export default function ProfileOverviewRoute() {
  return <ComingSoon title="Profile" />;
}
