/**
 * Collection status display (SPEC 4 "Collection status": Created (default when unknown),
 * Published, Draft, Archived, Deleted, each with a badge, icon and colour; colours from STYLE.md:
 * Created slate, Draft amber, Published green, Archived zinc, Deleted red).
 */
import { CollectionStatus } from '@coffer/contract/constants';
import { Archive, CircleCheck, CirclePlus, PencilLine, Trash2, type LucideIcon } from 'lucide-react';
import type { BadgeTone } from '../../../components/ui/badge';

export interface StatusMeta {
  status: CollectionStatus;
  label: string;
  tone: BadgeTone;
  icon: LucideIcon;
}

const CREATED: StatusMeta = { status: CollectionStatus.Created, label: 'Created', tone: 'slate', icon: CirclePlus };

/** A Map, so that only the five statuses match: 'toString', 'constructor' or '__proto__' are unknown values, not inherited properties. */
const META: ReadonlyMap<string, StatusMeta> = new Map<CollectionStatus, StatusMeta>([
  [CollectionStatus.Created, CREATED],
  [CollectionStatus.Published, { status: CollectionStatus.Published, label: 'Published', tone: 'green', icon: CircleCheck }],
  [CollectionStatus.Draft, { status: CollectionStatus.Draft, label: 'Draft', tone: 'amber', icon: PencilLine }],
  [CollectionStatus.Archived, { status: CollectionStatus.Archived, label: 'Archived', tone: 'zinc', icon: Archive }],
  [CollectionStatus.Deleted, { status: CollectionStatus.Deleted, label: 'Deleted', tone: 'red', icon: Trash2 }],
]);

/** The badge of a status value; unknown values (anything but the five statuses) read as Created (SPEC 4). */
export function collectionStatusMeta(status: unknown): StatusMeta {
  return (typeof status === 'string' && META.get(status)) || CREATED;
}
