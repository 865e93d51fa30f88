import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { preloadPagesFor } from './app/lazy-page';
import { AppProvider } from './app/provider';
import { routes } from './app/router';
import { seedInitialData } from './features/collections/api/initial-data';
import { afterFirstScreen, markFirstScreenShown } from './lib/after-first-screen';
import { loadFontsAfterFirstScreen } from './lib/fonts';
import { createQueryClient } from './lib/query-client';

const queryClient = createQueryClient();
// The first screen's answers the server put in the document (issue 16): no call before the first paint.
seedInitialData(queryClient);
const root = createRoot(document.getElementById('root')!);
// The first URL's page is loaded (its chunk is already on the way: the document modulepreloads it)
// and its first call started before the first render, so the first screen is painted once, complete.
// As a transition the first render yields to the browser every few ms instead of holding the main
// thread for the whole tree (one long task on a slow phone).
void preloadPagesFor(routes, window.location.pathname, queryClient).then(() =>
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider queryClient={queryClient} />
      </StrictMode>,
    ),
  ),
);
// Once the first screen is on screen, not beside it (ADR 0044): the web font, and the banners below
// the first one (BannerImage).
loadFontsAfterFirstScreen();
afterFirstScreen(markFirstScreenShown);
