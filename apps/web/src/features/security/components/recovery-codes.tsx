/** The ten recovery codes, shown once after two-factor is turned on (product §26), with copy and download. */
import { Download, KeyRound } from 'lucide-react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { SecurityTexts as T } from './security-texts';

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Coffer recovery codes\n\n${codes.join('\n')}\n\nEach code works once.\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(T.recoveryCopied);
    } catch {
      toast.error('Failed to copy');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'coffer-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section aria-labelledby="recovery-codes-title" className="mt-6 border-t border-slate-200 pt-6 dark:border-slate-800">
      <h3 id="recovery-codes-title" className="flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
        <KeyRound className="size-4 text-brand-600 dark:text-brand-400" aria-hidden="true" />
        {T.recoveryTitle}
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{T.recoveryHint}</p>
      <ul className="mt-4 grid grid-cols-1 gap-2 rounded-xl bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-2 dark:bg-slate-800/70 dark:text-slate-100">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="outline" onClick={copy}>
          {T.copyCodes}
        </Button>
        <Button variant="outline" onClick={download}>
          <Download className="size-4" aria-hidden="true" />
          {T.downloadCodes}
        </Button>
        <Button onClick={onDone}>{T.done}</Button>
      </div>
    </section>
  );
}
