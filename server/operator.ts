/**
 * What the operator sees: the addresses to give the class, LAN first, and log lines that cannot
 * drive the terminal. A room's name, a client's address behind a proxy, or an error's message can
 * carry control characters; printed as they are, escape sequences erased the operator's line,
 * printed a fake "room server on port 8787" and changed the window's title.
 */
import { networkInterfaces } from 'node:os';

/** `line` with every control character (C0, DEL, C1) and the line/paragraph separators written as \xNN or \uNNNN. */
export function safeLogLine(line: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** Non-internal IPv4 addresses of this machine: where other devices on the network reach it. */
export function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) out.push(a.address);
  return out;
}

const loopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/**
 * The origins at which other devices reach a server bound to `host`: each LAN address for a
 * wildcard bind, the host itself for a specific non-loopback one, none for loopback (only this
 * machine reaches it: the page's own origin is then all there is).
 */
export function lanOrigins(host: string, port: number): string[] {
  if (host === '0.0.0.0' || host === '::' || host === '') return lanAddresses().map((a) => `http://${a}:${port}`);
  if (loopback(host)) return [];
  return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
}

/** What to print for the class: the LAN origins first, then this machine's own (for the presenter's page only). */
export function originsToPrint(host: string, port: number): { lan: string[]; local: string[] } {
  const lan = lanOrigins(host, port);
  const local = host === '0.0.0.0' || host === '::' || host === '' ? [`http://localhost:${port}`] : loopback(host) ? [`http://${host}:${port}`] : [];
  return { lan, local };
}
