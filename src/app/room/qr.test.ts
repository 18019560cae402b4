/** The join link's QR code (qr.ts) reads back as the link: drawn from the path, decoded by qr's own reader. */
import decodeQR from 'qr/decode.js';
import { describe, expect, it } from 'vitest';
import { QR_BORDER, qrMatrix, qrPath } from './qr';

/** The path's unit squares painted into an RGBA image, `scale` pixels a module. */
function paint(path: string, modules: number, scale = 4) {
  const size = modules * scale;
  const data = new Uint8Array(size * size * 4).fill(255);
  for (const m of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x0, y, w] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (let py = y * scale; py < (y + 1) * scale; py++)
      for (let px = x0 * scale; px < (x0 + w) * scale; px++) data.fill(0, (py * size + px) * 4, (py * size + px) * 4 + 3);
  }
  return { width: size, height: size, data };
}

describe('the join link as a QR code', () => {
  const link = 'http://192.168.1.20:8787/?room=AbCdEfGhIjKlMnOpQrStUv&server=ws%3A%2F%2F192.168.1.20%3A8787%2Froom&v=1&preset=peers-learn';

  it('decodes to the exact link', () => {
    const matrix = qrMatrix(link);
    expect(matrix.length).toBe(matrix[0].length);
    expect(decodeQR(paint(qrPath(matrix), matrix.length))).toBe(link);
  });

  it('another link is another code', () => {
    const other = link.replace('AbCd', 'ZyXw');
    expect(qrPath(qrMatrix(other))).not.toBe(qrPath(qrMatrix(link)));
    const m = qrMatrix(other);
    expect(decodeQR(paint(qrPath(m), m.length))).toBe(other);
  });

  it('the path covers exactly the dark modules; the border is light', () => {
    const m = [
      [true, true, false],
      [false, true, true],
    ];
    expect(qrPath(m)).toBe('M0 0h2v1h-2zM1 1h2v1h-2z');
    const code = qrMatrix(link);
    for (let i = 0; i < QR_BORDER; i++) expect([...code[i], ...code.map((row) => row[i])].some(Boolean)).toBe(false);
  });
});
