/** The tabs of My Collections (product §2, §29): the collections and the sales dashboard. */
import { NavLink } from 'react-router';
import { tabTriggerClasses } from '@/components/ui/tabs';

const TABS = [
  { to: '/mycollections', label: 'Collections', end: true },
  { to: '/mycollections/dashboard', label: 'Sales dashboard', end: false },
] as const;

export function MyCollectionsTabs({ className }: { className?: string }) {
  return (
    <nav aria-label="My Collections sections" className={className ?? 'mb-6 overflow-x-auto'}>
      <div className="inline-flex items-center gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800/70">
        {TABS.map((t) => (
          <NavLink key={t.to} to={t.to} end={t.end} className={tabTriggerClasses}>
            {t.label}
          </NavLink>
        ))}
      </div>
    </nav>
  );
}
