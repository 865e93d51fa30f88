import { ProfileSelling } from '@/features/collections/components/profile-selling';
import { useProfileContext } from './context';

/** /profile/:id?/selling — the user's published collections; `userId` and `isOwn` come from the profile frame. */
export default function ProfileSellingRoute() {
  const { userId, isOwn } = useProfileContext();
  return <ProfileSelling userId={userId} isOwn={isOwn} />;
}
