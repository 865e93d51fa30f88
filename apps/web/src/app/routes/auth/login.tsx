import { ComingSoon } from '../../../components/ui/page';

export default function Route() {
  return <ComingSoon title="Log in" />;
}
