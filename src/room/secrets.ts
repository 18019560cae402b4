/**
 * The secrets a page keeps for a room: the presenter's key, or a student's seat (index and token).
 * They live in the injected storage (localStorage), never in a URL, so a reload or a rejoin takes
 * the same role and seat. What is read back is checked (another tab or a hand edit may have written
 * it): a damaged entry reads as none.
 *
 * A secret belongs to the server that issued it: entries are keyed by the room
 * server's origin AND the room id, and the client reads them only for the server it is connected
 * to. Keyed by room id alone (as before), a crafted link `?room=<real id>&server=ws://<attacker>`
 * made the teacher's page send its presenter key, and a student's page its seat token, to the
 * attacker's server. An id is not a secret of its server: it is in every join link.
 */
import { z } from '../core/zod';
import { ROOM_LIMITS, SecretSchema } from './protocol';

/** The part of localStorage the client uses. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** What the secrets store holds for one room of one server. */
const RoomSecretsSchema = z.object({
  key: SecretSchema.optional(),
  seat: z.object({ index: z.number().int().min(0).max(ROOM_LIMITS.seats - 1), token: SecretSchema }).optional(),
});
export type RoomSecrets = z.infer<typeof RoomSecretsSchema>;

/**
 * A room server's origin (`ws://host:port`, as the URL parser normalises it: lower-case host,
 * default port left out), the part of its address that names the server; null for an address that
 * is not a ws: or wss: URL (such an address holds no secrets).
 */
export function serverOrigin(server: string): string | null {
  try {
    const url = new URL(server);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null;
    return `${url.protocol}//${url.host}`;
  } catch {
    return null;
  }
}

export const secretsKey = (origin: string, room: string) => `cohort-lab:room-secrets:${origin} ${room}`;
/** Where a page kept a room's secrets before they were keyed by server (room id only). */
export const legacySecretsKey = (room: string) => `cohort-lab:room:${room}`;

function readEntry(storage: KeyValueStore | null, key: string): RoomSecrets {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return {};
    const parsed = RoomSecretsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The secrets this page holds for a room of the server at `server` (a damaged entry, or another server's, reads as none). */
export function readSecrets(storage: KeyValueStore | null, server: string, room: string): RoomSecrets {
  const origin = serverOrigin(server);
  return origin ? readEntry(storage, secretsKey(origin, room)) : {};
}

export function writeSecrets(storage: KeyValueStore | null, server: string, room: string, secrets: RoomSecrets): void {
  const origin = serverOrigin(server);
  if (!origin) return;
  try {
    if (secrets.key === undefined && secrets.seat === undefined) storage?.removeItem(secretsKey(origin, room));
    else storage?.setItem(secretsKey(origin, room), JSON.stringify(secrets));
  } catch {
    // A full or refused storage: the seat is only kept for this page's life.
  }
}

/**
 * Secrets kept by room id alone (before this change) go to `server`, and only when the caller
 * says that server is one the page would have used by itself (roomLink.ts: its own origin or the
 * default port on its host). Why that is safe: a page proposes no other server unless one is
 * typed or comes in a link, so an old entry was most likely issued by one of those; a crafted
 * link names any other server with a real room id, and such a server never gets an old entry.
 * The cost: an old entry issued by a typed server is not carried over (that presenter's reload
 * joins as a student). The old entry is removed once moved; one already under the server wins.
 */
export function adoptLegacySecrets(storage: KeyValueStore | null, server: string, room: string): void {
  const old = readEntry(storage, legacySecretsKey(room));
  if (old.key === undefined && old.seat === undefined) return;
  const now = readSecrets(storage, server, room);
  writeSecrets(storage, server, room, { key: now.key ?? old.key, seat: now.seat ?? old.seat });
  try {
    storage?.removeItem(legacySecretsKey(room));
  } catch {
    // Refused: the old entry stays, and is only ever read for this page's own servers.
  }
}

/**
 * Whether this tab held a room's seat when it was last open: kept in the tab's own storage
 * (sessionStorage, which a reload keeps and another tab opened on the link does not have), keyed
 * like the secrets by the server's origin and the room. A reloaded tab then joins with `takeover`:
 * its own connection from before the reload may not be closed at the server yet, and it is not
 * another tab. Not a secret: it holds the seat's index, no token.
 */
export const tabSeatKey = (origin: string, room: string) => `cohort-lab:room-tab-seat:${origin} ${room}`;

export function readTabSeat(storage: KeyValueStore | null, server: string, room: string): boolean {
  const origin = serverOrigin(server);
  try {
    return origin !== null && storage?.getItem(tabSeatKey(origin, room)) != null;
  } catch {
    return false;
  }
}

export function writeTabSeat(storage: KeyValueStore | null, server: string, room: string, seat: number | null): void {
  const origin = serverOrigin(server);
  if (!origin) return;
  try {
    if (seat === null) storage?.removeItem(tabSeatKey(origin, room));
    else storage?.setItem(tabSeatKey(origin, room), String(seat));
  } catch {
    // Refused: a reload of this tab is then asked "use this tab here", as another tab is.
  }
}
