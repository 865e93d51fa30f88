/**
 * The route table of product §2. Every page is lazy ({@link lazyPage}: React.lazy, resolved inside
 * the layout's Suspense fallback, or loaded ahead for the first URL) and renders inside the one shared layout with its error boundary.
 * Guarded routes sit under {@link RequireAuth}.
 *
 * The table is rendered by {@link AppRoutes} (`useRoutes` under a `BrowserRouter`, react-router's
 * declarative mode): the app uses no loaders, actions or fetchers, and the data router behind
 * `createBrowserRouter` was 15 kB (br) of every first screen's JavaScript
 * (docs/decisions/0044-first-screen-before-the-font.md).
 */
import { COLLECTIONS_PAGE_SIZE } from '@coffer/contract/constants';
import { Outlet, useRoutes, type RouteObject } from 'react-router';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { getMyCollectionsQueryOptions } from '@/features/collections/api/get-my-collections';
import { getAccessToken } from '@/lib/storage';
import { lazyPage } from './lazy-page';
import { AppLayout } from './layout/app-layout';
import { RouteErrorBoundary } from './layout/error-boundary';

const Home = lazyPage(() => import('./routes/home'));
const Resource = lazyPage(() => import('./routes/resource'));
const Collection = lazyPage(() => import('./routes/collection'));
const Creator = lazyPage(() => import('./routes/creator'));
const Terms = lazyPage(() => import('./routes/terms'));
const Privacy = lazyPage(() => import('./routes/privacy'));
const Reserves = lazyPage(() => import('./routes/reserves'));
const Login = lazyPage(() => import('./routes/auth/login'));
const Register = lazyPage(() => import('./routes/auth/register'));
const ForgotPassword = lazyPage(() => import('./routes/auth/forgot-password'));
const Upload = lazyPage(() => import('./routes/upload'));
const CollectionEdit = lazyPage(() => import('./routes/collection-edit'));
const MyCollections = lazyPage(
  () => import('./routes/my-collections'),
  // The first page at the first size, the key My Collections reads (usePagedQuery's defaults); only
  // when a user id exists (product §6), not on a token alone.
  (client) => {
    if (getAccessToken() && useAuthStore.getState().user?.id)
      void client.prefetchQuery(getMyCollectionsQueryOptions({ page: 0, size: COLLECTIONS_PAGE_SIZE }));
  },
);
const DiscountCodes = lazyPage(() => import('./routes/discount-codes'));
const MyCollectionsDashboard = lazyPage(() => import('./routes/my-collections-dashboard'));
const ProfileLayout = lazyPage(() => import('./routes/profile/profile-layout'));
const ProfileOverview = lazyPage(() => import('./routes/profile/overview'));
const ProfileSelling = lazyPage(() => import('./routes/profile/selling'));
const ProfileBuy = lazyPage(() => import('./routes/profile/buy'));
const ProfileEvents = lazyPage(() => import('./routes/profile/events'));
const ProfileSecurity = lazyPage(() => import('./routes/profile/security'));
const ProfileDeveloper = lazyPage(() => import('./routes/profile/developer'));
const Transactions = lazyPage(() => import('./routes/transactions'));
const NotFound = lazyPage(() => import('./routes/not-found'));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'resource/:id', element: <Resource /> },
      { path: 'collection/:id', element: <Collection /> },
      { path: 'creator/:id', element: <Creator /> },
      { path: 'terms', element: <Terms /> },
      { path: 'privacy', element: <Privacy /> },
      { path: 'reserves', element: <Reserves /> },
      { path: 'login', element: <Login /> },
      { path: 'register', element: <Register /> },
      { path: 'forgot-password', element: <ForgotPassword /> },
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          { path: 'upload', element: <Upload /> },
          { path: 'collection/:id/edit', element: <CollectionEdit /> },
          { path: 'mycollections', element: <MyCollections /> },
          { path: 'mycollections/discounts', element: <DiscountCodes /> },
          { path: 'mycollections/dashboard', element: <MyCollectionsDashboard /> },
          {
            path: 'profile/:id?',
            element: <ProfileLayout />,
            children: [
              { index: true, element: <ProfileOverview /> },
              { path: 'selling', element: <ProfileSelling /> },
              { path: 'buy', element: <ProfileBuy /> },
              { path: 'events', element: <ProfileEvents /> },
              { path: 'security', element: <ProfileSecurity /> },
              { path: 'developer', element: <ProfileDeveloper /> },
            ],
          },
          { path: 'transactions', element: <Transactions /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

/**
 * The route table rendered at the current location (inside a router: `BrowserRouter` in the app,
 * `MemoryRouter` in tests), under {@link RouteErrorBoundary} for what the layout's own boundary
 * does not catch.
 */
export function AppRoutes({ table = routes }: { table?: RouteObject[] }) {
  return <RouteErrorBoundary>{useRoutes(table)}</RouteErrorBoundary>;
}
