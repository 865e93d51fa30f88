import { Outlet } from 'react-router';

/** /profile/:id? — the profile frame with its tabs; the tab content renders in the outlet. */
export default function ProfileLayoutRoute() {
  return <Outlet />;
}
