/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * Registers the service worker (src/pwa/pwaOptions.ts) and reports to status.ts. Imported only by
 * src/main.tsx, lazily and in production builds: the dev server and Vitest never register one.
 */
import { registerSW } from 'virtual:pwa-register';
import { setPwaStatus, setUpdateAction } from './status';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const update = registerSW({
    immediate: true,
    onOfflineReady: () => setPwaStatus({ offlineReady: true }),
    onNeedRefresh: () => setPwaStatus({ updateReady: true }),
    // The page works without it (online only); offline, the browser's update check of sw.js fails too.
    onRegisterError: (e: unknown) => console.warn(`Cohort Lab: no offline support: ${e instanceof Error ? e.message : String(e)}`),
  });
  // Tells the waiting worker to take over; the page reloads once it controls the page.
  setUpdateAction(() => void update(true));
}
