import { Link } from 'react-router';
import { LegalPage } from '../layout/legal-page';

/** /terms — the terms of service of a points marketplace for digital resources. */
export default function TermsRoute() {
  return (
    <LegalPage
      title="Terms of Service"
      updated="November 1, 2026"
      intro={
        <p>
          These terms govern your use of Coffer, a marketplace where people publish, buy and download digital resources paid with points (P-coin).
          By creating an account or using Coffer you agree to them. If you do not agree, please do not use the service.
        </p>
      }
      sections={[
        {
          heading: 'Your account',
          body: (
            <>
              <p>You must give a valid email address and keep your password secret. You are responsible for everything done with your account.</p>
              <ul>
                <li>One person may hold several accounts, but you may not use them to manipulate sales, reviews or balances.</li>
                <li>Tell us at once if you believe someone else has used your account.</li>
                <li>You may delete your account at any time from your profile once your balance is empty.</li>
              </ul>
            </>
          ),
        },
        {
          heading: 'Points (P-coin)',
          body: (
            <>
              <p>
                Points are the unit of account on Coffer. You buy them by paying in a supported cryptocurrency (top-up) and you can turn them back into
                USDT sent to an address you choose (cash-out). The rate between points and US dollars is shown before you confirm; one USDT counts as one
                US dollar.
              </p>
              <ul>
                <li>Points are not a currency, a security or a deposit, earn no interest and can only be used on Coffer.</li>
                <li>A top-up is credited once the payment is confirmed on its network. Amounts sent after an order expires, or that differ from the order, are credited at the value actually received.</li>
                <li>A cash-out is final once sent. Check the address and network: crypto sent to a wrong address cannot be recovered. Network fees are shown before you confirm.</li>
                <li>We may hold a cash-out for review where the law requires it or where we suspect fraud.</li>
              </ul>
            </>
          ),
        },
        {
          heading: 'Selling',
          body: (
            <>
              <p>
                When you publish a collection you confirm that you own the files or have the right to sell them, and that they contain no malware, no
                personal data of others without consent, and nothing unlawful.
              </p>
              <ul>
                <li>You keep ownership of your content. You grant Coffer the right to store it, show its title, description and banner, and deliver it to buyers.</li>
                <li>Each buyer receives a personal, non-exclusive licence to download and use the purchased files for their own purposes unless the listing says otherwise.</li>
                <li>Earnings are credited to your available balance when a sale completes, less any platform fee shown when you publish.</li>
              </ul>
            </>
          ),
        },
        {
          heading: 'Buying',
          body: (
            <ul>
              <li>The price is charged once; buying the same collection again never charges twice.</li>
              <li>You keep access to what you bought even if the seller later archives or deletes the collection.</li>
              <li>Because digital files are delivered at once, purchases are final, except where a file is missing, corrupt or materially different from its description. Contact us within 14 days in that case.</li>
            </ul>
          ),
        },
        {
          heading: 'Acceptable use',
          body: (
            <p>
              Do not upload or sell content that infringes someone else&apos;s rights, is illegal, deceptive or harmful, and do not try to break, overload
              or work around the security of the service. We may remove content and suspend accounts that break these rules, and we respond to valid
              notices of infringement.
            </p>
          ),
        },
        {
          heading: 'Liability',
          body: (
            <p>
              Coffer is provided as is. We work to keep it available and your balance safe, but we are not liable for losses caused by events outside our
              control, such as network congestion, a blockchain reorganisation or a wrong address you entered. Nothing in these terms limits liability
              that cannot be limited by law.
            </p>
          ),
        },
        {
          heading: 'Changes',
          body: (
            <p>
              We may update these terms. We will tell you about material changes in advance; continuing to use Coffer afterwards means you accept them. See
              also our{' '}
              <Link to="/privacy" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
                Privacy Policy
              </Link>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
