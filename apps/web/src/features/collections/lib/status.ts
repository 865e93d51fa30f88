/**
 * Collection status display (product §4 "Collection status": Created (default when unknown),
 * Published, Draft, Archived, Deleted, each with a badge, icon and colour; the colours are the
 * status palette's, components/ui/status-palette.ts).
 */
import { CollectionStatus } from '@coffer/contract/constants';
import { Archive, CircleCheck, CirclePlus, PencilLine, Trash2, type LucideIcon } from 'lucide-react';
import type { BadgeTone } from '@/components/ui/badge';
import { STATUS_PALETTE } from '@/components/ui/status-palette';

export interface StatusMeta {
  status: CollectionStatus;
  label: string;
  tone: BadgeTone;
  icon: LucideIcon;
}

const CREATED: StatusMeta = {
  status: CollectionStatus.Created,
  label: 'Created',
  tone: STATUS_PALETTE.Created,
  icon: CirclePlus,
};

/** A Map, so that only the five statuses match: 'toString', 'constructor' or '__proto__' are unknown values, not inherited properties. */
const META: ReadonlyMap<string, StatusMeta> = new Map<CollectionStatus, StatusMeta>([
  [CollectionStatus.Created, CREATED],
  [
    CollectionStatus.Published,
    { status: CollectionStatus.Published, label: 'Published', tone: STATUS_PALETTE.Published, icon: CircleCheck },
  ],
  [CollectionStatus.Draft, { status: CollectionStatus.Draft, label: 'Draft', tone: STATUS_PALETTE.Draft, icon: PencilLine }],
  [
    CollectionStatus.Archived,
    { status: CollectionStatus.Archived, label: 'Archived', tone: STATUS_PALETTE.Archived, icon: Archive },
  ],
  [CollectionStatus.Deleted, { status: CollectionStatus.Deleted, label: 'Deleted', tone: STATUS_PALETTE.Deleted, icon: Trash2 }],
]);

/** The badge of a status value; unknown values (anything but the five statuses) read as Created (product §4). */
export function collectionStatusMeta(status: unknown): StatusMeta {
  return (typeof status === 'string' && META.get(status)) || CREATED;
}
