/**
 * The route table of product §2. Every page is lazy (React.lazy, resolved inside the layout's
 * Suspense fallback) and renders inside the one shared layout with its error boundary.
 * Guarded routes sit under {@link RequireAuth}.
 */
import { lazy } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { AppLayout } from './layout/app-layout';
import { RouteErrorScreen } from './layout/error-boundary';

const Home = lazy(() => import('./routes/home'));
const Resource = lazy(() => import('./routes/resource'));
const Collection = lazy(() => import('./routes/collection'));
const Terms = lazy(() => import('./routes/terms'));
const Privacy = lazy(() => import('./routes/privacy'));
const Reserves = lazy(() => import('./routes/reserves'));
const Login = lazy(() => import('./routes/auth/login'));
const Register = lazy(() => import('./routes/auth/register'));
const ForgotPassword = lazy(() => import('./routes/auth/forgot-password'));
const Upload = lazy(() => import('./routes/upload'));
const CollectionEdit = lazy(() => import('./routes/collection-edit'));
const MyCollections = lazy(() => import('./routes/my-collections'));
const DiscountCodes = lazy(() => import('./routes/discount-codes'));
const MyCollectionsDashboard = lazy(() => import('./routes/my-collections-dashboard'));
const ProfileLayout = lazy(() => import('./routes/profile/profile-layout'));
const ProfileOverview = lazy(() => import('./routes/profile/overview'));
const ProfileSelling = lazy(() => import('./routes/profile/selling'));
const ProfileBuy = lazy(() => import('./routes/profile/buy'));
const ProfileEvents = lazy(() => import('./routes/profile/events'));
const ProfileSecurity = lazy(() => import('./routes/profile/security'));
const Transactions = lazy(() => import('./routes/transactions'));
const NotFound = lazy(() => import('./routes/not-found'));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: <Home /> },
      { path: 'resource/:id', element: <Resource /> },
      { path: 'collection/:id', element: <Collection /> },
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
            ],
          },
          { path: 'transactions', element: <Transactions /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
