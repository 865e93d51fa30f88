import { ComingSoon } from '../../components/ui/page';

export default function PrivacyRoute() {
  return <ComingSoon title="Privacy Policy" />;
}
