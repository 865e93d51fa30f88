import { Link } from 'react-router';

/** The Coffer mark and name, linking home. */
export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <Link to="/" onClick={onClick} className="flex items-center gap-2 rounded-md font-semibold tracking-tight text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-white">
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M9 12h14v10a2 2 0 0 1-2 2H11a2 2 0 0 1-2-2V12zm2-4h10l2 4H9l2-4z" fill="#fff" />
      </svg>
      <span className="text-lg">Coffer</span>
    </Link>
  );
}
