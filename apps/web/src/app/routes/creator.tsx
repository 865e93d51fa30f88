/**
 * /creator/:id — a seller's public page (features/collections), with the profile feature's avatar
 * composed in here (features may not import each other). Public: no sign-in needed.
 */
import { useParams } from 'react-router';
import { CreatorPage, type CreatorAvatarSlot } from '@/features/collections/components/creator-page';
import { ProfileAvatar } from '@/features/profile/components/profile-avatar';

const avatar: CreatorAvatarSlot = (user) => <ProfileAvatar src={user.avatar} name={user.nickname || user.username} />;

export default function CreatorRoute() {
  const { id = '' } = useParams();
  // A new id starts at page 0 with fresh state.
  return <CreatorPage key={id} userId={id} avatar={avatar} />;
}
