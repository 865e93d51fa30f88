/**
 * /profile (index tab) — the own account: avatar, nickname, username and email, update mails
 * (product §24), change password, delete account. Another user's profile opens on their Selling tab instead.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Navigate, useNavigate } from 'react-router';
import { Card } from '@/components/ui/card';
import { clearSessionQueries } from '@/lib/query-client';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { AvatarUpload } from '@/features/profile/components/avatar-upload';
import { DeleteAccountDialog } from '@/features/profile/components/delete-account-dialog';
import { NicknameForm } from '@/features/profile/components/nickname-form';
import { UpdateMailsToggle } from '@/features/profile/components/update-mails-toggle';
import { useProfileContext } from './context';

function Section({ title, description, children, danger }: { title: string; description?: string; children: ReactNode; danger?: boolean }) {
  return (
    <Card className={danger ? 'border-red-200 dark:border-red-500/30' : undefined}>
      <div className="grid grid-cols-1 gap-6 p-6 md:grid-cols-3">
        <div className="min-w-0">
          <h2 className={danger ? 'font-semibold text-red-700 dark:text-red-400' : 'font-semibold text-slate-900 dark:text-white'}>{title}</h2>
          {description ? <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p> : null}
        </div>
        <div className="min-w-0 md:col-span-2">{children}</div>
      </div>
    </Card>
  );
}

export default function ProfileOverviewRoute() {
  const { isOwn } = useProfileContext();
  const user = useAuthStore((s) => s.user);
  const setUser = useAuthStore((s) => s.setUser);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (!isOwn) return <Navigate to="selling" replace />;
  if (!user) return null;

  const onDeleted = () => {
    // Like an expiry: the session ends and the user goes home. `expire` sets the flag that makes
    // the guard (still on screen while / loads) redirect to / instead of /login.
    useAuthStore.getState().expire();
    clearSessionQueries(queryClient);
    toast.success('Your account has been deleted');
    void navigate('/', { replace: true });
  };

  return (
    <div className="space-y-6">
      <Section title="Profile" description="How other users see you on Coffer.">
        <div className="space-y-6">
          <AvatarUpload avatar={user.avatar} name={user.nickname || user.username} onSaved={setUser} />
          <div className="border-t border-slate-200 pt-6 dark:border-slate-800">
            <NicknameForm nickname={user.nickname} onSaved={setUser} />
          </div>
          <dl className="grid grid-cols-1 gap-4 border-t border-slate-200 pt-6 sm:grid-cols-2 dark:border-slate-800">
            <div className="min-w-0">
              <dt className="text-sm font-medium text-slate-700 dark:text-slate-300">Username</dt>
              <dd className="mt-0.5 wrap-anywhere text-slate-900 dark:text-white">{user.username}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-sm font-medium text-slate-700 dark:text-slate-300">Email</dt>
              <dd className="mt-0.5 break-all text-slate-900 dark:text-white">{user.email}</dd>
            </div>
          </dl>
        </div>
      </Section>
      <Section title="Notifications" description="Updates to collections you bought always show on My Purchases.">
        <UpdateMailsToggle />
      </Section>
      <Section title="Password" description="Changing it signs you out everywhere else.">
        <ChangePasswordForm />
      </Section>
      <Section title="Delete account" description="Permanently remove your account." danger>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
          Cash out your balance first. Your published collections will be archived and you will be signed out.
        </p>
        <DeleteAccountDialog onDeleted={onDeleted} />
      </Section>
    </div>
  );
}
