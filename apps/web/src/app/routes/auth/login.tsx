import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { AuthShell } from '@/features/auth/components/auth-shell';
import { LoginForm } from '@/features/auth/components/login-form';
import { rememberedPath } from '@/features/auth/components/require-auth';
import { useAuthStore } from '@/features/auth/stores/auth-store';

/** /login — after success, back to the location the guard remembered (else home). */
export default function LoginRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const isLoading = useAuthStore((s) => s.isLoading);
  const target = rememberedPath(location.state);
  if (isAuthenticated && !isLoading) return <Navigate to={target} replace />;
  return (
    <AuthShell
      title="Welcome back"
      subtitle="Log in to buy, sell and manage your collections."
      footer={
        <>
          New to Coffer?{' '}
          <Link to="/register" state={location.state} className="font-medium text-brand-600 hover:underline dark:text-brand-400">
            Create an account
          </Link>
        </>
      }
    >
      <LoginForm onSuccess={() => void navigate(target, { replace: true })} />
    </AuthShell>
  );
}
