import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { RegisterForm } from '@/features/auth/components/register-form';
import { rememberedPath } from '@/features/auth/components/require-auth';
import { useAuthStore } from '@/features/auth/stores/auth-store';

/** /register — a new account is signed in at once and goes where the guard remembered (else home). */
export default function RegisterRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const isLoading = useAuthStore((s) => s.isLoading);
  const target = rememberedPath(location.state);
  if (isAuthenticated && !isLoading) return <Navigate to={target} replace />;
  return (
    <AuthShell
      title="Create your account"
      subtitle="Sell your digital resources and buy from other creators with points."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" state={location.state} className="font-medium text-brand-600 hover:underline dark:text-brand-400">
            Log in
          </Link>
        </>
      }
    >
      <RegisterForm onSuccess={() => void navigate(target, { replace: true })} />
    </AuthShell>
  );
}
