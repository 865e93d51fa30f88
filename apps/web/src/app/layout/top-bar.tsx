/**
 * The top bar of product §2. Visitors: Log in, Sign up. Signed in: My Collections, My Purchases,
 * the balance button and a user menu (Your Profile, Transactions, Sign out). Translucent once
 * the page has scrolled more than 10 px; a mobile menu repeats the links.
 */
import { TOP_BAR_SCROLL_THRESHOLD_PX } from '@coffer/contract/constants';
import type { User } from '@coffer/contract';
import { ChevronDown, Menu, X } from 'lucide-react';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, NavLink, useLocation } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useLogout } from '@/features/auth/api/logout';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { BalanceButton } from '@/features/wallet/components/balance-button';
import { UNEXPECTED_ERROR_TOAST } from './error-boundary';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';
import { UserAvatar } from './user-avatar';

const navLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
    isActive ? 'text-slate-900 dark:text-white' : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
  );

/** True once the window has scrolled more than the threshold. */
function useScrolled(threshold = TOP_BAR_SCROLL_THRESHOLD_PX) {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return scrolled;
}

// The user menu (Radix) is not on the first screen: it loads when the pointer or focus reaches its
// button, or on the first click (docs/decisions/0016-web-entry-budget.md). A failed early load is
// quiet: the click loads it again and says so if it fails then.
const loadUserMenu = () => import('./user-menu');
// React.lazy keeps a rejected import for good: after a failure the next attempt gets a new one.
const makeUserMenu = () =>
  lazy(() =>
    loadUserMenu().then(
      (m) => ({ default: m.UserMenu }),
      (err: unknown) => {
        UserMenu = makeUserMenu();
        throw err;
      },
    ),
  );
let UserMenu = makeUserMenu();

/**
 * Keeps a menu whose code failed to load inside the top bar: the button comes back (a click tries
 * the import again) and the spec's toast says what happened (§8), instead of the whole app falling
 * to the error screen.
 */
class MenuChunkBoundary extends Component<{ children: ReactNode; onFailed: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error) {
    toast.error(UNEXPECTED_ERROR_TOAST, { id: 'unexpected-error' });
    console.error(error);
    this.props.onFailed();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

const userMenuTrigger =
  'hidden items-center gap-1.5 rounded-full p-0.5 pr-2 transition-colors hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none md:flex dark:hover:bg-slate-800';

/**
 * The user menu's button: a plain look-alike until the menu module has loaded (preloaded on
 * pointer enter / focus); the first click loads it and opens the menu.
 */
function UserMenuSlot({
  user,
  onSignOut,
}: {
  user: Pick<User, 'nickname' | 'username' | 'email' | 'avatar'>;
  onSignOut: () => void;
}) {
  const [clicked, setClicked] = useState(false);
  const content = (
    <>
      <UserAvatar user={user} />
      <ChevronDown className="size-4 text-slate-500" aria-hidden="true" />
    </>
  );
  const placeholder = (
    <button
      type="button"
      className={userMenuTrigger}
      aria-label="User menu"
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadUserMenu().catch(() => undefined)}
      onFocus={() => void loadUserMenu().catch(() => undefined)}
      onClick={() => setClicked(true)}
    >
      {content}
    </button>
  );
  if (!clicked) return placeholder;
  const LoadedMenu = UserMenu;
  return (
    <MenuChunkBoundary onFailed={() => setClicked(false)}>
      <Suspense fallback={placeholder}>
        <LoadedMenu user={user} defaultOpen onSignOut={onSignOut} triggerClassName={userMenuTrigger}>
          {content}
        </LoadedMenu>
      </Suspense>
    </MenuChunkBoundary>
  );
}

export function TopBar() {
  const user = useAuthStore((s) => s.user);
  const isAuthenticated = useAuthStore((s) => s.isAuthenticated);
  const scrolled = useScrolled();
  const logout = useLogout();
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setMobileOpen(false), [location.pathname]);
  const signedIn = isAuthenticated && user !== null;

  return (
    <header
      data-scrolled={scrolled || undefined}
      className={cn(
        'sticky top-0 z-40 w-full border-b transition-colors duration-200',
        scrolled
          ? 'border-slate-200/80 bg-white/75 backdrop-blur-md dark:border-slate-800/80 dark:bg-slate-950/75'
          : 'border-transparent bg-white dark:bg-slate-950',
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="ml-4 hidden items-center gap-1 md:flex">
          {signedIn ? (
            <>
              <NavLink to="/mycollections" className={navLink}>
                My Collections
              </NavLink>
              <NavLink to="/profile/buy" className={navLink}>
                My Purchases
              </NavLink>
            </>
          ) : null}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          {signedIn ? (
            <>
              <BalanceButton userId={user.id} fallbackAvailable={user.asset?.available} className="hidden sm:inline-flex" />
              <UserMenuSlot user={user} onSignOut={() => logout.mutate()} />
            </>
          ) : (
            <div className="hidden items-center gap-2 md:flex">
              <Link to="/login" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
                Log in
              </Link>
              <Link to="/register" className={buttonVariants({ size: 'sm' })}>
                Sign up
              </Link>
            </div>
          )}
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none md:hidden dark:text-slate-300 dark:hover:bg-slate-800"
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            onClick={() => setMobileOpen((o) => !o)}
          >
            {mobileOpen ? <X className="size-5" /> : <Menu className="size-5" />}
          </button>
        </div>
      </div>
      {mobileOpen ? (
        <nav
          id="mobile-menu"
          aria-label="Mobile"
          className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 md:hidden dark:border-slate-800 dark:bg-slate-950"
        >
          {signedIn ? (
            <div className="flex flex-col gap-1">
              <div className="flex items-center gap-3 px-3 py-3">
                <UserAvatar user={user} className="size-9" />
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium" title={user.nickname || user.username}>
                    {user.nickname || user.username}
                  </p>
                  <p className="truncate text-xs text-slate-500 dark:text-slate-400" title={user.email}>
                    {user.email}
                  </p>
                </div>
                <BalanceButton userId={user.id} fallbackAvailable={user.asset?.available} className="ml-auto" />
              </div>
              <NavLink to="/mycollections" className={navLink}>
                My Collections
              </NavLink>
              <NavLink to="/profile/buy" className={navLink}>
                My Purchases
              </NavLink>
              <NavLink to="/profile" end className={navLink}>
                Your Profile
              </NavLink>
              <NavLink to="/transactions" className={navLink}>
                Transactions
              </NavLink>
              <button type="button" onClick={() => logout.mutate()} className={cn(navLink({ isActive: false }), 'text-left')}>
                Sign out
              </button>
            </div>
          ) : (
            <div className="flex flex-col gap-2 pt-2">
              <Link to="/login" className={buttonVariants({ variant: 'outline' })}>
                Log in
              </Link>
              <Link to="/register" className={buttonVariants()}>
                Sign up
              </Link>
            </div>
          )}
        </nav>
      ) : null}
    </header>
  );
}
