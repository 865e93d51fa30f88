import { Moon, Sun } from 'lucide-react';
import { useState } from 'react';
import { currentTheme, setTheme, type ThemeChoice } from '@/lib/theme';
import { cn } from '@/lib/cn';

/** Switches between the light and dark themes (the first visit follows prefers-color-scheme). */
export function ThemeToggle({ className }: { className?: string }) {
  const [theme, setState] = useState<ThemeChoice>(() => (typeof document === 'undefined' ? 'light' : currentTheme()));
  const next: ThemeChoice = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={() => {
        setTheme(next);
        setState(next);
      }}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      className={cn(
        'inline-flex size-9 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900',
        'focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
    >
      {theme === 'dark' ? <Sun className="size-5" /> : <Moon className="size-5" />}
    </button>
  );
}
