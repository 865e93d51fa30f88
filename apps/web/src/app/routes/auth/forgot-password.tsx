import { Link, useNavigate } from 'react-router';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

/** /forgot-password — a code by mail, then a new password; back to /login when done. */
export default function ForgotPasswordRoute() {
  const navigate = useNavigate();
  return (
    <AuthShell
      title="Reset your password"
      subtitle="Enter the email of your account and we will send you a reset code."
      footer={
        <>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
            Back to log in
          </Link>
        </>
      }
    >
      <ForgotPasswordForm onSuccess={() => void navigate('/login', { replace: true })} />
    </AuthShell>
  );
}
