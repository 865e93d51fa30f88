import { Link } from 'react-router';

/** The Coffer mark and name, linking home. */
export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <Link to="/" onClick={onClick} className="flex items-center gap-2 rounded-md font-semibold tracking-tight text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-white">
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600" />
        <path d="M8 13.5V12a4 4 0 0 1 4-4h8a4 4 0 0 1 4 4v1.5z" fill="#fff" />
        <path d="M8 15h16v7a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2z" fill="#fff" />
        <rect x="14" y="12.5" width="4" height="5" rx="1" className="fill-brand-600" stroke="#fff" strokeWidth="1" />
      </svg>
      <span className="text-lg">Coffer</span>
    </Link>
  );
}
