import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { cn } from '@/lib/cn';

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  value: string;
  /** Toast on success, e.g. 'Address copied to clipboard' (product §8). */
  successMessage?: string;
  /** Toast on failure, e.g. 'Failed to copy address' (product §8). */
  errorMessage?: string;
  /** Accessible name, e.g. 'Copy address'. */
  label?: string;
  className?: string;
}

/** An icon button that copies `value` and confirms with a toast. */
export function CopyButton({ value, successMessage = 'Copied to clipboard', errorMessage = 'Failed to copy', label = 'Copy', className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(successMessage);
      window.setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error(errorMessage);
    }
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900',
        'focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:hover:bg-slate-800 dark:hover:text-white',
        className,
      )}
    >
      {copied ? <Check className="size-4 text-emerald-600" /> : <Copy className="size-4" />}
    </button>
  );
}
