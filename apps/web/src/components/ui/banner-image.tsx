import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { useFirstScreenShown } from '@/lib/after-first-screen';
import { cn } from '@/lib/cn';

/**
 * A collection's banner at 16:9, or the 'No Banner' placeholder (product §2) when there is none or
 * it fails to load. `eager`: the banner the first screen shows largest (loaded at once, high
 * priority). The others are lazy and not even requested before the first screen has been shown
 * (the box keeps its size meanwhile, so nothing moves): on a phone's link they would take bandwidth
 * from what the first screen waits for (docs/decisions/0044-first-screen-before-the-font.md).
 */
export function BannerImage({
  src,
  alt,
  className,
  eager,
}: {
  src?: string | null;
  alt: string;
  className?: string;
  eager?: boolean;
}) {
  const [broken, setBroken] = useState(false);
  const firstScreenShown = useFirstScreenShown();
  if (src && !broken && !eager && !firstScreenShown) {
    return <div className={cn('relative aspect-[16/9] w-full overflow-hidden bg-slate-100 dark:bg-slate-800', className)} />;
  }
  return (
    <div className={cn('relative aspect-[16/9] w-full overflow-hidden bg-slate-100 dark:bg-slate-800', className)}>
      {src && !broken ? (
        <img
          src={src}
          alt={alt}
          // Intrinsic 16:9 size (the box is sized by CSS): the browser knows the ratio before the bytes arrive.
          width={1600}
          height={900}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          {...(eager ? { fetchPriority: 'high' as const } : {})}
          onError={() => setBroken(true)}
          className="size-full object-cover"
        />
      ) : (
        <div className="flex size-full flex-col items-center justify-center gap-1.5 bg-gradient-to-br from-slate-100 to-slate-200 text-slate-400 dark:from-slate-800 dark:to-slate-900 dark:text-slate-500">
          <ImageOff className="size-6" aria-hidden="true" />
          <span className="text-xs font-medium">No Banner</span>
        </div>
      )}
    </div>
  );
}
