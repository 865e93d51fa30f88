import { cn } from '@/lib/cn';

/** A large round avatar: the image, else the first letter of the name. */
export function ProfileAvatar({ src, name, className }: { src?: string | null; name: string; className?: string }) {
  if (src) return <img src={src} alt="" className={cn('size-20 shrink-0 rounded-full object-cover ring-4 ring-white dark:ring-slate-900', className)} />;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-20 shrink-0 items-center justify-center rounded-full bg-brand-100 text-3xl font-semibold text-brand-700 uppercase ring-4 ring-white dark:bg-brand-500/20 dark:text-brand-300 dark:ring-slate-900',
        className,
      )}
    >
      {(name || '?').slice(0, 1)}
    </span>
  );
}
