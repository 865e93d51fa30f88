import { useParams } from 'react-router';
import { CreatorPage } from '@/features/collections/components/creator-page';
import { ProfileHeader, ProfileHeaderSkeleton } from '@/features/profile/components/profile-header';
import NotFound from './not-found';

/** /creator/:id — a seller's public page (public; linked from every collection's 'by …'). */
export default function CreatorRoute() {
  const { id } = useParams();
  if (!id) return <NotFound />;
  return (
    <CreatorPage
      key={id}
      userId={id}
      header={(creator) => <ProfileHeader user={creator} />}
      headerSkeleton={<ProfileHeaderSkeleton />}
    />
  );
}
