import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { preloadDialog } from '@/components/ui/lazy-dialog';
import { markFirstScreenShown } from '@/lib/after-first-screen';
import { resetSessionExpiryThrottle } from '@/lib/api-client';
import { takeMockContractErrors } from './mock-api';
import { server } from './server';

// Lazy pages and a busy machine can take more than the default 1 s to settle.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Radix's popper and pointer handling reach for.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
// jsdom does not scroll; the layout resets or restores the position on every navigation.
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// In the app the dialog code arrives after the first screen (lazy-dialog.tsx); here it is loaded
// before each file's tests, so dialogs open in the same pass as the click. The path where a dialog
// opens before its code has arrived is tested in lazy-dialog.test.tsx.
beforeAll(async () => {
  await preloadDialog();
});
// Likewise the banners below the first one render their <img> once the first screen has been shown
// (banner-image.tsx); the wait itself is tested in banner-image.test.tsx.
markFirstScreenShown();
afterEach(() => {
  cleanup();
  // react-hot-toast's store is global: a toast left by one test is not another's status.
  toast.remove();
  server.resetHandlers();
  localStorage.clear();
  resetSessionExpiryThrottle();
  // A mockApi answer the contract's schema refused (mock-api.ts): the test fails here.
  const contractErrors = takeMockContractErrors();
  if (contractErrors.length > 0) throw contractErrors[0];
});
afterAll(() => server.close());
