import { Badge } from '@/components/ui/badge';
import { collectionStatusMeta } from '../lib/status';

/** A collection's status badge with its icon and colour (product §4, §21). */
export function CollectionStatusBadge({ status, className }: { status: unknown; className?: string }) {
  const meta = collectionStatusMeta(status);
  const Icon = meta.icon;
  return (
    <Badge tone={meta.tone} className={className} icon={<Icon className="size-3.5" aria-hidden="true" />}>
      {meta.label}
    </Badge>
  );
}
