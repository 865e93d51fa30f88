/**
 * The collection page's gallery: the image thumbnails the server answered on the collection's files
 * (`thumbnail_url`), as a product page shows its pictures. The server decides which files carry one
 * for this viewer (free previews for anyone; every image for the owner and for buyers past the
 * automatic refund, docs/decisions/0049-thumbnails-and-the-automatic-refund.md); nothing here adds
 * any. No section at all when no file has one.
 *
 * Each thumbnail is a button that opens a lightbox (the app's dialog: focus kept inside, Escape
 * closes, focus goes back to the thumbnail) with Previous and Next, also on the Left and Right
 * arrow keys. Thumbnails load lazily in fixed square boxes (width and height given), so nothing
 * moves as they arrive; the first {@link GALLERY_FIRST} show, the rest behind 'Show all'.
 */
import type { Resource } from '@coffer/contract';
import { ChevronLeft, ChevronRight, ImageOff } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, useReturnFocus } from '@/components/ui/lazy-dialog';
import { cn } from '@/lib/cn';

/** Thumbnails shown before 'Show all'. */
export const GALLERY_FIRST = 8;
/** Thumbnails are WebP images of at most 320 x 320 px (the server's THUMBNAIL_PX). */
const THUMBNAIL_PX = 320;

interface GalleryImage {
  id: string;
  name: string;
  url: string;
  preview: boolean;
}

/** The files with a thumbnail, in the files' order; files removed by the seller left out. */
export function galleryImages(resources: Resource[]): GalleryImage[] {
  return resources.flatMap((r) =>
    r.thumbnail_url && !r.removed ? [{ id: r.id, name: r.name, url: r.thumbnail_url, preview: r.preview }] : [],
  );
}

/** A thumbnail that shows an 'image unavailable' mark instead when its URL fails (e.g. expired). */
function Thumbnail({ image, className, eager }: { image: GalleryImage; className?: string; eager?: boolean }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <span className={cn('flex items-center justify-center text-slate-400 dark:text-slate-500', className)}>
        <ImageOff className="size-6" aria-hidden="true" />
      </span>
    );
  }
  return (
    <img
      src={image.url}
      alt=""
      width={THUMBNAIL_PX}
      height={THUMBNAIL_PX}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setBroken(true)}
      className={className}
    />
  );
}

export function PreviewGallery({ resources }: { resources: Resource[] }) {
  const images = galleryImages(resources);
  const [open, setOpen] = useState<number | null>(null);
  const [showAll, setShowAll] = useState(false);
  const returnFocus = useReturnFocus();
  if (images.length === 0) return null;

  const shown = showAll ? images : images.slice(0, GALLERY_FIRST);
  const current = open === null ? null : images[open];
  const go = (step: number) => setOpen((i) => (i === null ? i : (i + step + images.length) % images.length));
  const onKeyDown = (e: KeyboardEvent) => {
    if (images.length < 2) return;
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    }
  };

  return (
    <section aria-labelledby="gallery-heading" className="space-y-3">
      <h2 id="gallery-heading" className="font-semibold text-slate-900 dark:text-white">
        Gallery <span className="font-normal text-slate-500 dark:text-slate-400">({images.length})</span>
      </h2>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label="Gallery">
        {shown.map((image, i) => (
          <li key={image.id} className="min-w-0">
            <button
              type="button"
              onClick={() => setOpen(i)}
              aria-label={`View ${image.name}`}
              title={image.name}
              className="block aspect-square w-full overflow-hidden rounded-xl border border-slate-200 bg-slate-100 transition hover:opacity-90 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:border-slate-800 dark:bg-slate-800"
            >
              <Thumbnail image={image} className="size-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      {images.length > GALLERY_FIRST ? (
        <Button variant="outline" size="sm" onClick={() => setShowAll((v) => !v)} aria-expanded={showAll}>
          {showAll ? 'Show fewer' : `Show all ${images.length} images`}
        </Button>
      ) : null}
      <Dialog open={current !== null} onOpenChange={(o) => !o && setOpen(null)}>
        {current && open !== null ? (
          <DialogContent
            {...returnFocus}
            title={current.name}
            description={[images.length > 1 ? `Image ${open + 1} of ${images.length}` : '', current.preview ? 'Free preview' : '']
              .filter(Boolean)
              .join(' · ') || undefined}
            className="max-w-2xl"
            onKeyDown={onKeyDown}
          >
            <div className="overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800">
              <Thumbnail
                key={current.id}
                image={current}
                eager
                className="mx-auto aspect-square max-h-[60vh] w-full object-contain"
              />
            </div>
            {images.length > 1 ? (
              <div className="mt-4 flex items-center justify-between gap-2">
                <Button variant="outline" size="sm" onClick={() => go(-1)} aria-label="Previous image">
                  <ChevronLeft className="size-4" aria-hidden="true" />
                  Previous
                </Button>
                <Button variant="outline" size="sm" onClick={() => go(1)} aria-label="Next image">
                  Next
                  <ChevronRight className="size-4" aria-hidden="true" />
                </Button>
              </div>
            ) : null}
          </DialogContent>
        ) : null}
      </Dialog>
    </section>
  );
}
