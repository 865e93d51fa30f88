/**
 * The footer of product §2: four columns (Resources, Account, Legal, and Coffer with its tagline),
 * a copyright line with the current year, and a Start Now link to /login for visitors only.
 */
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { Logo } from './logo';

const TAGLINE = 'Trade digital resources with ease. Upload, buy, and sell your digital assets.';

const columns: { title: string; links: { to: string; label: string }[] }[] = [
  { title: 'Resources', links: [{ to: '/', label: 'Browse' }, { to: '/upload', label: 'Create' }] },
  {
    title: 'Account',
    links: [
      { to: '/login', label: 'Log in' },
      { to: '/profile', label: 'Profile' },
      { to: '/mycollections', label: 'My Collections' },
      { to: '/transactions', label: 'Transactions' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/reserves', label: 'Proof of liabilities' },
    ],
  },
];

const linkClass =
  'rounded text-sm text-slate-600 transition-colors hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-400 dark:hover:text-white';

export function Footer() {
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-50/60 dark:border-slate-800 dark:bg-slate-900/40">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-8 md:grid-cols-4">
          <div className="col-span-2 md:order-first md:col-span-1">
            <Logo />
            <p className="mt-3 max-w-xs text-sm text-slate-600 dark:text-slate-400">{TAGLINE}</p>
            {isAuthenticated ? null : (
              <Link to="/login" className={buttonVariants({ size: 'sm', className: 'mt-4' })}>
                Start Now
              </Link>
            )}
          </div>
          {columns.map((col) => (
            <div key={col.title}>
              <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{col.title}</h2>
              <ul className="mt-3 space-y-2">
                {col.links.map((l) => (
                  <li key={l.to}>
                    <Link to={l.to} className={linkClass}>
                      {l.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="mt-10 border-t border-slate-200 pt-6 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
          © {new Date().getFullYear()} Coffer. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
