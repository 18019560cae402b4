/**
 * A minimal zip writer (and a reader for tests): stored entries (no compression), CRC-32, UTF-8
 * names, a fixed timestamp (1980-01-01) so the same files give the same bytes. No zip64: at most
 * 65,535 entries and 4 GiB, far beyond an export. Pure: works in the browser and in Node.
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipInput {
  path: string;
  /** Text (written as UTF-8) or bytes. */
  data: string | Uint8Array;
}

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const DOS_TIME = 0;
const UTF8_FLAG = 0x0800;

/** The zip archive of `entries`, in their order. Throws on an empty, absolute or '..' path or a duplicate. */
export function zipStore(entries: readonly ZipInput[]): Uint8Array {
  const enc = new TextEncoder();
  const seen = new Set<string>();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    if (!e.path || e.path.startsWith('/') || e.path.split('/').some((p) => p === '..' || p === '') || e.path.includes('\\')) {
      throw new Error(`zip: bad entry path "${e.path}"`);
    }
    if (seen.has(e.path)) throw new Error(`zip: "${e.path}" is given twice`);
    seen.add(e.path);
    const name = enc.encode(e.path);
    const data = typeof e.data === 'string' ? enc.encode(e.data) : e.data;
    const crc = crc32(data);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true); // version needed: 2.0
    lv.setUint16(6, UTF8_FLAG, true);
    lv.setUint16(8, 0, true); // stored
    lv.setUint16(10, DOS_TIME, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, 0, true);
    local.set(name, 30);
    const head = new Uint8Array(46 + name.length);
    const cv = new DataView(head.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, (3 << 8) | 20, true); // made by: Unix, 2.0
    cv.setUint16(6, 20, true);
    cv.setUint16(8, UTF8_FLAG, true);
    cv.setUint16(10, 0, true);
    cv.setUint16(12, DOS_TIME, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, name.length, true);
    // extra 0, comment 0, disk 0, internal attributes 0
    const mode = e.path.endsWith('.sh') ? 0o100755 : 0o100644;
    cv.setUint32(38, (mode << 16) >>> 0, true);
    cv.setUint32(42, offset, true);
    head.set(name, 46);
    parts.push(local, data);
    central.push(head);
    offset += local.length + data.length;
  }
  if (entries.length > 0xffff || offset > 0xffffffff) throw new Error('zip: too large for a zip without zip64');
  const centralSize = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + end.length);
  let at = 0;
  for (const p of [...parts, ...central, end]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface ZipEntry {
  path: string;
  data: Uint8Array;
}

/** Reads a stored-only zip's entries through its central directory (for tests; checks CRCs). */
export function readZipStore(zip: Uint8Array): ZipEntry[] {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const endAt = zip.length - 22;
  if (endAt < 0 || v.getUint32(endAt, true) !== 0x06054b50) throw new Error('zip: no end of central directory (comments are not supported)');
  const count = v.getUint16(endAt + 10, true);
  let at = v.getUint32(endAt + 16, true);
  const dec = new TextDecoder();
  const out: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (v.getUint32(at, true) !== 0x02014b50) throw new Error(`zip: bad central directory entry ${i}`);
    if (v.getUint16(at + 10, true) !== 0) throw new Error('zip: compressed entry');
    const crc = v.getUint32(at + 16, true);
    const size = v.getUint32(at + 20, true);
    const nameLen = v.getUint16(at + 28, true);
    const extraLen = v.getUint16(at + 30, true);
    const commentLen = v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true);
    const path = dec.decode(zip.subarray(at + 46, at + 46 + nameLen));
    const start = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    const data = zip.slice(start, start + size);
    if (crc32(data) !== crc) throw new Error(`zip: CRC mismatch in ${path}`);
    out.push({ path, data });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
