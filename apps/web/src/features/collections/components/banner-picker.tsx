/**
 * The banner chooser of the create screen: PNG, JPEG, WebP or GIF up to 5 MB, checked before
 * anything is sent (the server checks the bytes again), with a preview.
 */
import { IMAGE_CONTENT_TYPES } from '@coffer/contract/constants';
import { ImagePlus, X } from 'lucide-react';
import { useEffect, useId, useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { bannerFileError } from '../api/create-collection';

export interface BannerPickerProps {
  file: File | null;
  error: string | null;
  onChange: (file: File | null, error: string | null) => void;
  disabled?: boolean;
  /** The banner URL the collection has now (edit screen): shown until another image is chosen. */
  current?: string;
}

export function BannerPicker({ file, error, onChange, disabled, current }: BannerPickerProps) {
  const id = useId();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  return (
    <div className="space-y-1.5">
      <span className="block text-sm font-medium text-slate-700 dark:text-slate-300">Banner</span>
      <div className="relative max-w-xl overflow-hidden rounded-2xl border border-slate-200 dark:border-slate-800">
        {preview ? (
          <>
            <img src={preview} alt="Banner preview" className="aspect-[16/9] w-full object-cover" />
            <Button
              variant="secondary"
              size="sm"
              className="absolute top-3 right-3 shadow"
              onClick={() => onChange(null, null)}
              disabled={disabled}
              aria-label="Remove banner"
            >
              <X className="size-4" aria-hidden="true" />
              Remove
            </Button>
          </>
        ) : current ? (
          <label htmlFor={id} className="relative block cursor-pointer focus-within:ring-2 focus-within:ring-brand-500">
            <img src={current} alt="Current banner" className="aspect-[16/9] w-full object-cover" />
            <span className="absolute right-3 bottom-3 inline-flex items-center gap-1 rounded-lg bg-white/90 px-3 py-1.5 text-sm font-medium text-slate-800 shadow dark:bg-slate-900/90 dark:text-slate-100">
              <ImagePlus className="size-4" aria-hidden="true" />
              Choose another image
            </span>
          </label>
        ) : (
          <label
            htmlFor={id}
            className="flex aspect-[16/9] w-full cursor-pointer flex-col items-center justify-center gap-2 bg-slate-50 text-slate-500 hover:bg-slate-100 focus-within:ring-2 focus-within:ring-brand-500 dark:bg-slate-900 dark:text-slate-400 dark:hover:bg-slate-800"
          >
            <ImagePlus className="size-8" aria-hidden="true" />
            <span className="text-sm font-medium">Choose a banner image</span>
            <span className="text-xs">PNG, JPEG, WebP or GIF, up to 5 MB</span>
          </label>
        )}
        <input
          id={id}
          type="file"
          accept={IMAGE_CONTENT_TYPES.join(',')}
          className="sr-only"
          aria-label="Banner image"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          disabled={disabled}
          onChange={(e) => {
            const f = e.target.files?.[0] ?? null;
            e.target.value = '';
            if (!f) return;
            const problem = bannerFileError(f);
            onChange(problem ? null : f, problem);
          }}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
