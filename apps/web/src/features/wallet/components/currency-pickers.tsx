/**
 * The network tab strip and the token chooser of the top-up and cash-out modals. Networks are
 * shown upper-case (product §9); both are keyboard-usable (Radix Tabs: arrow keys; radio buttons).
 */
import type { Currency } from '@coffer/contract';
import type { ReactNode } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/cn';
import { currencyLabel, networkLabel } from '../utils/display';

/** The distinct networks of `currencies`, in their order. */
export function networksOf(currencies: Currency[]): string[] {
  return [...new Set(currencies.map((c) => networkLabel(c.network)))];
}

/**
 * The network tab strip; `children` (the rest of the form) is the panel of the selected network,
 * so every tab controls a panel that exists (each network has its own, hidden when not selected).
 */
export function NetworkTabs({
  networks,
  value,
  onChange,
  label = 'Network',
  children,
}: {
  networks: string[];
  value: string;
  onChange: (network: string) => void;
  label?: string;
  children: ReactNode;
}) {
  return (
    <Tabs value={value} onValueChange={onChange}>
      <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-300" id="network-tabs-label">
        {label}
      </p>
      <TabsList aria-labelledby="network-tabs-label" className="flex w-full flex-wrap justify-start">
        {networks.map((n) => (
          <TabsTrigger key={n} value={n} className="flex-1">
            {n}
          </TabsTrigger>
        ))}
      </TabsList>
      {networks.map((n) => (
        <TabsContent key={n} value={n} className="mt-5 space-y-5" tabIndex={-1}>
          {n === value ? children : null}
        </TabsContent>
      ))}
    </Tabs>
  );
}

export function TokenChooser({
  currencies,
  value,
  onChange,
}: {
  currencies: Currency[];
  value: string;
  onChange: (code: string) => void;
}) {
  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300" id="token-chooser-label">
        Token
      </p>
      <div role="radiogroup" aria-labelledby="token-chooser-label" className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {currencies.map((c) => {
          const selected = c.code === value;
          return (
            <button
              key={c.code}
              type="button"
              role="radio"
              aria-checked={selected}
              onClick={() => onChange(c.code)}
              className={cn(
                'flex items-center gap-2 rounded-lg border px-3 py-2 text-left text-sm transition-colors focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
                selected
                  ? 'border-brand-500 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-500/15 dark:text-brand-200'
                  : 'border-slate-200 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800',
              )}
            >
              {c.logo_url ? <img src={c.logo_url} alt="" className="size-5 shrink-0 rounded-full" /> : null}
              <span className="font-medium">{currencyLabel(c)}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
