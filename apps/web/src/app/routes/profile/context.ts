import { useOutletContext } from 'react-router';

/** What the profile frame hands its tabs: whose profile it is, and whether it is the signed-in user's own. */
export interface ProfileOutletContext {
  userId: string;
  isOwn: boolean;
}

export function useProfileContext(): ProfileOutletContext {
  return useOutletContext<ProfileOutletContext>();
}
