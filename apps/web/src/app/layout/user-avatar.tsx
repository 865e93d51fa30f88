import type { User } from '@coffer/contract';
import { cn } from '@/lib/cn';

/** A round avatar: the image when set, else the initial on a tinted disc. */
export function UserAvatar({ user, className }: { user: Pick<User, 'nickname' | 'username' | 'avatar'>; className?: string }) {
  const name = user.nickname || user.username || '?';
  if (user.avatar) {
    return <img src={user.avatar} alt="" className={cn('size-8 shrink-0 rounded-full object-cover ring-1 ring-slate-200 dark:ring-slate-700', className)} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn('inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-700 uppercase dark:bg-brand-500/20 dark:text-brand-300', className)}
    >
      {name.slice(0, 1)}
    </span>
  );
}
