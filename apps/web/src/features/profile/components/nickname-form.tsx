import type { User } from '@coffer/contract';
import { NicknameSchema } from '@coffer/contract';
import { Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/input';
import { useChangeNickname } from '../api/update-account';

/** Shows the nickname with an Edit button; editing saves through account/change. */
export function NicknameForm({ nickname, onSaved }: { nickname: string; onSaved?: (user: User) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(nickname);
  const [error, setError] = useState<string | null>(null);
  const change = useChangeNickname({
    onSuccess: (user) => {
      setEditing(false);
      onSaved?.(user);
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = NicknameSchema.safeParse(value);
    const problem = parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid nickname');
    setError(problem);
    if (!problem) change.mutate(value);
  }

  if (!editing) {
    return (
      <div className="flex items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-700 dark:text-slate-300">Nickname</p>
          <p className="mt-0.5 wrap-anywhere text-slate-900 dark:text-white" data-testid="nickname">
            {nickname}
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          className="shrink-0"
          onClick={() => {
            setValue(nickname);
            setError(null);
            setEditing(true);
          }}
        >
          <Pencil className="size-3.5" aria-hidden="true" /> Edit
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <TextField label="Nickname" name="nickname" value={value} onChange={(e) => setValue(e.target.value)} error={error} containerClassName="flex-1" autoFocus maxLength={64} />
      <div className="flex gap-2 sm:pt-7">
        <Button type="submit" size="md" isLoading={change.isPending}>
          Save
        </Button>
        <Button variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
