/**
 * The store-only zip writer: Python's zipfile (an independent reader) lists and reads back every
 * entry, CRCs included; our reader agrees; bad paths are refused. Python parts are skipped with a
 * notice where python3 is missing.
 */
import { describe, expect, it } from 'vitest';
import { crc32, readZipStore, zipStore } from './zip';
import { hasPython, runPython } from './trl/python.testkit';

const entries = [
  { path: 'proj/README.md', data: '# hello\n' },
  { path: 'proj/data/rl.jsonl', data: '{"a":1}\n'.repeat(1000) },
  { path: 'proj/launch.sh', data: '#!/usr/bin/env bash\necho hi\n' },
  { path: 'proj/ünïcode/😀.txt', data: 'é\n' },
  { path: 'proj/empty.txt', data: '' },
  { path: 'proj/bytes.bin', data: new Uint8Array([0, 255, 1, 254, 10, 13]) },
];

describe('the zip writer', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('is read back by its own reader, byte for byte, and is deterministic', () => {
    const zip = zipStore(entries);
    const back = readZipStore(zip);
    expect(back.map((e) => e.path)).toEqual(entries.map((e) => e.path));
    back.forEach((e, i) => {
      const d = entries[i].data;
      expect(Array.from(e.data)).toEqual(Array.from(typeof d === 'string' ? new TextEncoder().encode(d) : d));
    });
    expect(zipStore(entries)).toEqual(zip);
    const corrupt = zip.slice();
    corrupt[30 + 'proj/README.md'.length + 2] ^= 1; // inside the first entry's data
    expect(() => readZipStore(corrupt)).toThrow(/CRC mismatch/);
  });

  it('refuses absolute, parent, empty and duplicate paths', () => {
    for (const path of ['/abs', 'a/../b', '', 'a//b', 'a\\b']) expect(() => zipStore([{ path, data: 'x' }]), path).toThrow(/bad entry path/);
    expect(() => zipStore([{ path: 'a', data: 'x' }, { path: 'a', data: 'y' }])).toThrow(/twice/);
  });

  it.skipIf(!hasPython())("is read by Python's zipfile: names, contents, CRCs (testzip), modes", () => {
    const zip = zipStore(entries);
    const out = runPython(
      [
        '-c',
        'import sys, zipfile, io, json, base64\n' +
          'z = zipfile.ZipFile(io.BytesIO(base64.b64decode(sys.stdin.read())))\n' +
          'assert z.testzip() is None\n' +
          'print(json.dumps([[i.filename, base64.b64encode(z.read(i)).decode(), i.compress_type, (i.external_attr >> 16) & 0o777, list(i.date_time)] for i in z.infolist()]))',
      ],
      Buffer.from(zip).toString('base64'),
    );
    const rows = JSON.parse(out);
    expect(rows.map((r: unknown[]) => r[0])).toEqual(entries.map((e) => e.path));
    rows.forEach((r: [string, string, number, number, number[]], i: number) => {
      const d = entries[i].data;
      expect(Buffer.from(r[1], 'base64')).toEqual(Buffer.from(typeof d === 'string' ? new TextEncoder().encode(d) : d));
      expect(r[2]).toBe(0); // stored
      expect(r[3]).toBe(entries[i].path.endsWith('.sh') ? 0o755 : 0o644);
      expect(r[4]).toEqual([1980, 1, 1, 0, 0, 0]);
    });
  });
});
