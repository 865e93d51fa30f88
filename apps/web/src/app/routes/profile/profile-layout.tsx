/**
 * /profile and /profile/:id — the profile frame: header (avatar, nickname, @username, join
 * date) and tabs; the tab content renders in the outlet with {@link ProfileOutletContext}.
 * The own profile (no id, or one's own id) reads the signed-in user; another user's profile reads
 * the public profile call.
 */
import { UserX } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageContainer } from '@/components/ui/page';
import { tabTriggerClasses } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { useProfile } from '@/features/profile/api/get-profile';
import { ProfileHeader, ProfileHeaderSkeleton } from '@/features/profile/components/profile-header';
import type { ProfileOutletContext } from './context';

export default function ProfileLayoutRoute() {
  const { id } = useParams();
  const me = useAuthStore((s) => s.user);
  const isOwn = !id || id === me?.id;
  const other = useProfile(isOwn ? undefined : id);
  const base = isOwn ? '/profile' : `/profile/${id}`;
  const { pathname } = useLocation();
  const nav = useRef<HTMLElement>(null);
  // Keep the open tab in view (the strip wraps on a phone; this is for very narrow windows).
  useEffect(() => {
    nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  if (!isOwn && other.isError) {
    return (
      <PageContainer>
        <EmptyState
          icon={<UserX />}
          title="User not found"
          description={getErrorMessage(other.error, 'This profile does not exist or has been deleted.')}
          action={
            <Link to="/" className={buttonVariants({ variant: 'outline' })}>
              Back to home
            </Link>
          }
        />
      </PageContainer>
    );
  }

  const user = isOwn ? me : other.data;
  const tabs = isOwn
    ? [
        { to: base, label: 'Account', end: true },
        { to: `${base}/selling`, label: 'Selling' },
        { to: `${base}/buy`, label: 'My Purchases' },
        { to: `${base}/events`, label: 'Events & webhooks' },
        { to: `${base}/security`, label: 'Security' },
        { to: `${base}/developer`, label: 'Developer' },
      ]
    : [{ to: `${base}/selling`, label: 'Selling' }];
  const context: ProfileOutletContext = { userId: (isOwn ? me?.id : id) ?? '', isOwn };

  return (
    <PageContainer>
      <div className="rounded-2xl border border-slate-200 bg-gradient-to-br from-brand-50 via-white to-white p-6 sm:p-8 dark:border-slate-800 dark:from-brand-500/10 dark:via-slate-900 dark:to-slate-900">
        {user ? <ProfileHeader user={user} badge={isOwn ? <Badge tone="brand">You</Badge> : null} /> : <ProfileHeaderSkeleton />}
      </div>
      {/* The tabs wrap onto a second line on a phone: every tab stays visible, none is cut. */}
      <nav ref={nav} aria-label="Profile sections" className="mt-6">
        <div className="flex flex-wrap items-center gap-1 rounded-lg bg-slate-100 p-1 sm:inline-flex dark:bg-slate-800/70">
          {tabs.map((t) => (
            <NavLink key={t.to} to={t.to} end={t.end} className={cn(tabTriggerClasses)}>
              {t.label}
            </NavLink>
          ))}
        </div>
      </nav>
      <div className="mt-6">
        <Outlet context={context} />
      </div>
    </PageContainer>
  );
}
