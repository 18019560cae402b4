/**
 * Class mode's addresses (pure, but for linkRole's one-time move of secrets kept the old way,
 * secrets.ts adoptLegacySecrets): the room server's WebSocket URL (the default, and checking one a
 * presenter typed), and the join link a presenter shares, `<page>/?room=<id>&server=<ws url>`
 * plus the experiment's share-link parameters (the room's spec wins anyway). A join link is
 * untrusted input: the id must be a SecretSchema id and the server a ws: or wss: URL; anything
 * else is a notice in words and the lab works alone. The presenter's key and the seat tokens are
 * never in a link (src/room/client.ts keeps them in localStorage, by server and room).
 *
 * A link may name any server, so one naming a server on another host than the page's asks before
 * the page connects to it (linkRole's `ask`), unless this browser already holds
 * a secret of that room from that server (it joined or made the room there before).
 *
 * The presenter's page shows its room's join link in its own address bar (history.replaceState),
 * so a reload opens the same link; a browser that holds the presenter key of that room from that
 * server presents the room again rather than joining it as a student (linkRole). The link students
 * get (joinAddress) uses the server's LAN address where the page is on localhost.
 */
import type { RoomRole } from '../../room/client';
import { type KeyValueStore, adoptLegacySecrets, readSecrets, serverOrigin } from '../../room/secrets';
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

/** `ask`: the page asks its user before it connects to `server` (see pageTrusts). */
export type LinkRole = { kind: 'none' } | { kind: 'bad'; problem: string } | { kind: 'join'; server: string; role: RoomRole; ask: boolean };

/**
 * The servers a page would use by itself (room.open's guesses): its own origin's, and the default
 * port on its host. Secrets kept by room id alone (before they were kept by server) are carried
 * over only to these (secrets.ts adoptLegacySecrets says why that is safe).
 */
export function pageDefaultServers(loc: PageLocation): string[] {
  return [sameOriginServer(loc), defaultPortServer(loc)];
}

/**
 * Whether the page connects to `server` without asking: a server on the page's own host (any
 * port). That host served the page's own code, so a server on it learns nothing that host could
 * not take anyway; a server on any other host is one a link's author chose, and the page asks.
 */
export function pageTrusts(server: string, loc: PageLocation): boolean {
  try {
    return new URL(server).hostname === new URL(loc.origin).hostname;
  } catch {
    return false;
  }
}

/**
 * What a page opened with ?room=&server= is in that room: its presenter when this browser holds
 * the room's presenter key from that server (a presenter's reload), else a student; and whether
 * the page asks before connecting (a server the page does not trust, of which this browser holds
 * no secret of this room: a join link somebody else made).
 */
export function linkRole(search: string, loc: PageLocation, storage: KeyValueStore | null): LinkRole {
  const p = joinParams(search, loc);
  if (p.kind !== 'join') return p;
  const { room, server } = p;
  const origin = serverOrigin(server);
  if (origin && pageDefaultServers(loc).some((d) => serverOrigin(d) === origin)) adoptLegacySecrets(storage, server, room);
  const held = readSecrets(storage, server, room);
  const presenting = held.key !== undefined;
  const ask = !pageTrusts(server, loc) && held.key === undefined && held.seat === undefined;
  return { kind: 'join', server, role: presenting ? { kind: 'presenter', room } : { kind: 'student', room }, ask };
}

/** A server's address as a person reads it in a question: its host and port. */
export function serverHost(server: string): string {
  try {
    return new URL(server).host || server;
  } catch {
    return server;
  }
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: addresses every device takes for itself. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/** The link students get, and why students' devices may not open it (null: they can). */
export interface JoinAddress {
  link: string;
  warning: string | null;
}

/**
 * The join link for students' devices. A page opened on localhost would put
 * `localhost` in the link and its QR code, which each student's device takes for itself. Where the
 * room server serves the lab too (the page's origin is the server's) and said at which LAN
 * origins other devices reach it (`lanOrigins`, the likeliest first), the link is made on the first
 * of them; otherwise it is this page's, with a warning in words when it names a loopback address.
 */
export function joinAddress(pageUrl: string, room: string, server: string, lanOrigins: readonly string[]): JoinAddress {
  const page = new URL(pageUrl);
  const srv = new URL(server);
  const lan = lanOrigins.map(lanOrigin).find((x) => x !== null) ?? null;
  const pageLoop = isLoopbackHost(page.hostname);
  const serverServesPage = page.host === srv.host && (page.protocol === 'https:') === (srv.protocol === 'wss:');
  if (pageLoop && serverServesPage && lan) {
    const ws = `${lan.protocol === 'https:' ? 'wss:' : 'ws:'}//${lan.host}${srv.pathname}`;
    return { link: joinLink(`${lan.origin}${page.pathname}${page.search}`, room, ws), warning: null };
  }
  const link = joinLink(pageUrl, room, server);
  if (pageLoop) {
    const where = lan ? `the room server's address, ${lan.origin}/ (it serves the lab once \`npm run build\` has run),` : "this computer's network address";
    return { link, warning: `This page is open at ${page.host}, a localhost address: students' devices cannot open it. Open the lab at ${where} and create the room there.` };
  }
  if (isLoopbackHost(srv.hostname)) {
    const where = lan ? ` (e.g. ${lan.protocol === 'https:' ? 'wss:' : 'ws:'}//${lan.host}${srv.pathname})` : '';
    return { link, warning: `The room server's address ${srv.host} is this computer only: students' devices cannot reach it. Use its network address${where} and create the room again.` };
  }
  return { link, warning: null };
}

/** A LAN origin from the server, checked (http: or https:, a host that is not loopback); null if not one. */
function lanOrigin(raw: string): URL | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname || isLoopbackHost(url.hostname) || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** A page URL without the room's parameters (leaving the room: a reload does not join it again). */
export function withoutRoom(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.searchParams.delete('room');
  url.searchParams.delete('server');
  const q = url.searchParams.toString();
  return `${url.origin}${url.pathname}${q ? `?${q}` : ''}${url.hash}`;
}

/**
 * Where a join code is typed: the room server's own address (it serves the lab and answers
 * /code/...), read from the join link's server (ws → http); the link's page otherwise.
 */
export function codeOrigin(link: string): string {
  try {
    const url = new URL(link);
    const server = url.searchParams.get('server');
    return server ? new URL(server).origin.replace(/^ws/, 'http') : url.origin;
  } catch {
    return '';
  }
}
