/**
 * Avatar upload with a preview: pick an image, see it, then Save (presigned PUT + account/change)
 * or Cancel.
 */
import type { User } from '@coffer/contract';
import { IMAGE_CONTENT_TYPES } from '@coffer/contract/constants';
import { Camera } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '@/components/ui/button';
import { avatarFileError, useUploadAvatar } from '../api/update-account';
import { ProfileAvatar } from './profile-avatar';

export function AvatarUpload({ avatar, name, onSaved }: { avatar: string; name: string; onSaved?: (user: User) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const upload = useUploadAvatar({
    onSuccess: (user) => {
      setFile(null);
      onSaved?.(user);
    },
  });

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function pick(e: React.ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0];
    e.target.value = '';
    if (!chosen) return;
    const problem = avatarFileError(chosen);
    if (problem) {
      toast.error(problem);
      return;
    }
    setFile(chosen);
  }

  return (
    <div className="flex items-center gap-4">
      <ProfileAvatar src={preview ?? avatar} name={name} className="size-16 text-2xl ring-2" />
      <div className="min-w-0 space-y-2">
        <p className="text-sm font-medium text-slate-700 dark:text-slate-300">Avatar</p>
        <input
          ref={input}
          type="file"
          accept={IMAGE_CONTENT_TYPES.join(',')}
          className="sr-only"
          onChange={pick}
          aria-label="Choose avatar image"
          tabIndex={-1}
        />
        {file ? (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => upload.mutate(file)} isLoading={upload.isPending}>
              Save avatar
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setFile(null)} disabled={upload.isPending}>
              Cancel
            </Button>
          </div>
        ) : (
          <Button size="sm" variant="outline" onClick={() => input.current?.click()}>
            <Camera className="size-3.5" aria-hidden="true" /> Change avatar
          </Button>
        )}
        <p className="text-xs text-slate-500 dark:text-slate-400">PNG, JPEG, WebP or GIF, up to 5 MB.</p>
      </div>
    </div>
  );
}
