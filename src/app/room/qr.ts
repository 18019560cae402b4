/**
 * The join link as a QR code, made on the page (qr: no network, no dependencies): the module
 * matrix, and one SVG path of its dark modules that RoomQr.tsx draws (React elements, no HTML).
 */
import encodeQR from 'qr';

/** Light modules around the code, as the QR standard asks. */
export const QR_BORDER = 4;

/**
 * The code's modules row by row (true: dark), the light border included. Medium error correction:
 * a phone reads it off a projector.
 */
export function qrMatrix(text: string): boolean[][] {
  return encodeQR(text, 'raw', { ecc: 'medium', border: QR_BORDER });
}

/** One path of unit squares: draw it in a viewBox as wide as the matrix. */
export function qrPath(matrix: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  matrix.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  });
  return parts.join('');
}
