import { ComingSoon } from '../../components/ui/page';

export default function TermsRoute() {
  return <ComingSoon title="Terms of Service" />;
}
