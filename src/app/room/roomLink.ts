/**
 * Class mode's addresses (pure): the room server's WebSocket URL (the default, and checking one a
 * presenter typed), and the join link a presenter shares, `<page>/?room=<id>&server=<ws url>`
 * plus the experiment's share-link parameters (the room's spec wins anyway). A join link is
 * untrusted input: the id must be a SecretSchema id and the server a ws: or wss: URL; anything
 * else is a notice in words and the lab works alone. The presenter's key and the seat tokens are
 * never in a link (src/room/client.ts keeps them in localStorage).
 *
 * The presenter's page shows its room's join link in its own address bar (history.replaceState),
 * so a reload opens the same link; a browser that holds the presenter key of that room (its
 * secrets in localStorage, by room id) presents the room again rather than joining it as a
 * student (linkRole).
 */
import type { RoomRole } from '../../room/client';
import { type KeyValueStore, readSecrets } from '../../room/secrets';
import { SecretSchema } from '../../room/protocol';

/** The room server's port and path when it is not the page's own origin (`npm run room`). */
export const ROOM_PORT = 8787;
export const ROOM_PATH = '/room';
/** Longest server address accepted. */
export const MAX_SERVER_CHARS = 300;

export interface PageLocation {
  protocol: string;
  host: string;
  hostname: string;
  origin: string;
  pathname: string;
}

/** The room server on the page's own origin (where the room server serves the built app). */
export function sameOriginServer(loc: PageLocation): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${ROOM_PATH}`;
}

/** A room server on the page's host at the default port (a page served by Vite, the server beside it). */
export function defaultPortServer(loc: PageLocation): string {
  const host = loc.hostname.includes(':') ? `[${loc.hostname}]` : loc.hostname || 'localhost';
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${host}:${ROOM_PORT}${ROOM_PATH}`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A room server's address, checked: a ws: or wss: URL with a host, no credentials, no fragment. */
export function checkServerUrl(raw: string): Checked<string> {
  const text = raw.trim();
  if (!text) return { ok: false, problem: "the room server's address is empty" };
  if (text.length > MAX_SERVER_CHARS) return { ok: false, problem: `the room server's address is longer than ${MAX_SERVER_CHARS} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: `the room server's address is not a URL (expected e.g. ws://192.168.1.20:${ROOM_PORT}${ROOM_PATH})` };
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return { ok: false, problem: "the room server's address must start with ws:// or wss://" };
  if (!url.hostname) return { ok: false, problem: "the room server's address names no host" };
  if (url.username || url.password) return { ok: false, problem: "the room server's address may not hold a user name or password" };
  if (url.hash) return { ok: false, problem: "the room server's address may not hold a #fragment" };
  return { ok: true, value: url.href };
}

/**
 * The join link: this page with `room` and `server` set, keeping the experiment's share-link
 * parameters (v, preset, s, h) and dropping every other (a presenter's ?backend= is theirs).
 */
export function joinLink(pageUrl: string, room: string, server: string): string {
  const url = new URL(pageUrl);
  const keep = new URLSearchParams();
  for (const k of ['v', 'preset', 's', 'h']) {
    const v = url.searchParams.get(k);
    if (v !== null) keep.set(k, v);
  }
  const out = new URLSearchParams({ room, server });
  for (const [k, v] of keep) out.set(k, v);
  return `${url.origin}${url.pathname}?${out.toString()}`;
}

export type JoinParams = { kind: 'none' } | { kind: 'join'; room: string; server: string } | { kind: 'bad'; problem: string };

/** ?room=&server= of a page URL, checked. */
export function joinParams(search: string, loc: PageLocation): JoinParams {
  const params = new URLSearchParams(search);
  const room = params.get('room');
  const server = params.get('server');
  if (room === null && server === null) return { kind: 'none' };
  if (room === null) return { kind: 'bad', problem: 'This link names a room server but no room: the lab works alone.' };
  if (!SecretSchema.safeParse(room).success) return { kind: 'bad', problem: 'This link names a room that cannot be one (a room id is 22 letters, digits, - or _): the lab works alone.' };
  const checked = checkServerUrl(server ?? sameOriginServer(loc));
  if (!checked.ok) return { kind: 'bad', problem: `This class room link cannot be joined: ${checked.problem}. The lab works alone.` };
  return { kind: 'join', room, server: checked.value };
}

export type LinkRole = { kind: 'none' } | { kind: 'bad'; problem: string } | { kind: 'join'; server: string; role: RoomRole };

/**
 * What a page opened with ?room=&server= is in that room: its presenter when this browser holds
 * the room's presenter key (a presenter's reload), else a student.
 */
export function linkRole(search: string, loc: PageLocation, storage: KeyValueStore | null): LinkRole {
  const p = joinParams(search, loc);
  if (p.kind !== 'join') return p;
  const room = p.room;
  const presenting = readSecrets(storage, room).key !== undefined;
  return { kind: 'join', server: p.server, role: presenting ? { kind: 'presenter', room } : { kind: 'student', room } };
}

/** A page URL without the room's parameters (leaving the room: a reload does not join it again). */
export function withoutRoom(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.searchParams.delete('room');
  url.searchParams.delete('server');
  const q = url.searchParams.toString();
  return `${url.origin}${url.pathname}${q ? `?${q}` : ''}${url.hash}`;
}
