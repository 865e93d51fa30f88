import { Eye, EyeOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Field, Input, type InputProps } from '@/components/ui/input';

export interface PasswordFieldProps extends Omit<InputProps, 'type'> {
  label: string;
  error?: string | null;
  hint?: string;
}

/** A labelled password input with a show/hide toggle and its validation message. */
export function PasswordField({ label, error, hint, id, ...props }: PasswordFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const [visible, setVisible] = useState(false);
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <Field label={label} id={inputId} error={error} hint={hint}>
      <div className="relative">
        <Input
          id={inputId}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="pr-10"
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none dark:hover:text-slate-200"
        >
          {visible ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
        </button>
      </div>
    </Field>
  );
}
