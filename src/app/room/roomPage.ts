/**
 * The page around a room: its address (which room server to try first, and the link a reload
 * opens), its localStorage (this browser's presenter keys and projector views) and the probe that
 * finds a room server. Nothing here holds the connection (roomSession.ts).
 */
import { type PageLocation, defaultPortServer, sameOriginServer } from './roomLink';
import type { KeyValueStore } from '../../room/secrets';
import { useLab } from '../store';

/** How long the same-origin room server is given to answer before the default port is assumed. */
const PROBE_MS = 1500;

export function pageLocation(): PageLocation {
  const l = window.location;
  return { protocol: l.protocol, host: l.host, hostname: l.hostname, origin: l.origin, pathname: l.pathname };
}

/** The page's localStorage (null where the browser refuses it). */
export function pageStorage(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The address bar shows `url` (same origin), with no new history entry. */
export function showInAddressBar(url: string): void {
  try {
    if (url !== window.location.href) window.history.replaceState(window.history.state, '', url);
  } catch {
    // A page the browser does not let change its address: a reload then does not come back.
  }
}

/** The room server's address, found the first time it is needed: same origin if it answers there, else the default port. */
export async function findRoomServer(): Promise<void> {
  if (useLab.getState().room.serverUrl) return;
  const loc = pageLocation();
  const same = sameOriginServer(loc);
  useLab.getState().setRoom({ serverUrl: (await answers(same)) ? same : defaultPortServer(loc) });
}

/** Whether a WebSocket opens at `url` within PROBE_MS (the page served by the room server). */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch {
      resolve(false);
      return;
    }
    const done = (ok: boolean) => {
      clearTimeout(timer);
      ws.onopen = ws.onerror = null;
      try {
        ws.close();
      } catch {
        // closed
      }
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), PROBE_MS);
    ws.onopen = () => done(true);
    ws.onerror = () => done(false);
  });
}
