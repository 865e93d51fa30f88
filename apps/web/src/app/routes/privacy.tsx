import { Link } from 'react-router';
import { LegalPage } from '../layout/legal-page';

/** /privacy — what Coffer collects, why, and the user's choices. */
export default function PrivacyRoute() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="November 1, 2026"
      intro={
        <p>
          This policy explains what personal data Coffer collects when you use the marketplace, why we need it, and the choices you have. We collect as
          little as we can to run the service.
        </p>
      }
      sections={[
        {
          heading: 'What we collect',
          body: (
            <ul>
              <li>Account data: username, email address, nickname, avatar and a one-way hash of your password (we never see or store your password itself).</li>
              <li>Marketplace data: the collections and files you upload, what you buy and sell, and your points balance and transaction history.</li>
              <li>Payment data: deposit and cash-out orders, the networks and addresses involved, and transaction hashes. Blockchain transactions are public by nature.</li>
              <li>Technical data: IP address, browser type and request logs, kept to protect accounts against abuse (for example rate limits on sign-in).</li>
            </ul>
          ),
        },
        {
          heading: 'How we use it',
          body: (
            <ul>
              <li>To run your account, deliver purchases and keep your balance and history correct.</li>
              <li>To send service emails, such as password reset codes. We do not send marketing email without your consent.</li>
              <li>To detect fraud and meet legal duties, for example around cash-outs.</li>
            </ul>
          ),
        },
        {
          heading: 'What others see',
          body: (
            <p>
              Your nickname, username, avatar and the collections you publish are public. Your email address, balance, purchases and transaction history
              are visible only to you.
            </p>
          ),
        },
        {
          heading: 'Sharing',
          body: (
            <p>
              We do not sell personal data. We share it only with providers that help us run Coffer (hosting, file storage, email delivery and payment
              processing), under contracts that limit their use of it, and with authorities where the law requires.
            </p>
          ),
        },
        {
          heading: 'Storage and security',
          body: (
            <p>
              Data travels over encrypted connections. Passwords are stored with a slow, salted hash; sign-in sessions are random tokens stored only in
              hashed form and end when you log out or change your password. In your browser, Coffer keeps your session token and basic profile in local
              storage; logging out removes them.
            </p>
          ),
        },
        {
          heading: 'Your choices',
          body: (
            <ul>
              <li>You can change your nickname, avatar and password on your profile at any time.</li>
              <li>You can delete your account from your profile once your balance is empty. Records we must keep by law (such as payment records) are retained for the period the law requires and then deleted.</li>
              <li>You can ask us for a copy of your data or to correct it.</li>
            </ul>
          ),
        },
        {
          heading: 'Changes',
          body: (
            <p>
              We will post any change to this policy here and tell you about material changes in advance. See also our{' '}
              <Link to="/terms" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
                Terms of Service
              </Link>
              .
            </p>
          ),
        },
      ]}
    />
  );
}
