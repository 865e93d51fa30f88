import { CalendarDays } from 'lucide-react';
import { formatDate } from '@/lib/format';
import { ProfileAvatar } from './profile-avatar';

export interface ProfileHeaderUser {
  nickname: string;
  username: string;
  avatar: string;
  created_at?: number;
}

/** The profile banner: avatar, nickname, @username and the join date. */
export function ProfileHeader({ user, badge }: { user: ProfileHeaderUser; badge?: React.ReactNode }) {
  const joined = formatDate(user.created_at);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <ProfileAvatar src={user.avatar} name={user.nickname || user.username} />
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="max-w-full min-w-0 truncate text-2xl font-semibold tracking-tight text-slate-900 dark:text-white" title={user.nickname || user.username}>
            {user.nickname || user.username}
          </h1>
          {badge}
        </div>
        <p className="truncate text-sm text-slate-500 dark:text-slate-400" title={`@${user.username}`}>
          @{user.username}
        </p>
        {joined ? (
          <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
            <CalendarDays className="size-4" aria-hidden="true" /> Joined {joined}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The header's placeholder while the profile loads. */
export function ProfileHeaderSkeleton() {
  return (
    <div className="flex items-center gap-4" aria-hidden="true">
      <div className="size-20 animate-pulse rounded-full bg-slate-200 dark:bg-slate-800" />
      <div className="space-y-2">
        <div className="h-6 w-48 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-4 w-32 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      </div>
    </div>
  );
}
