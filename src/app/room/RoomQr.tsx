/** The join link as a QR code (qr.ts), drawn as an SVG path made on the page: no network, no HTML. */
import { useMemo } from 'react';
import { qrMatrix, qrPath } from './qr';

export function RoomQr({ link }: { link: string }) {
  const code = useMemo(() => {
    const matrix = qrMatrix(link);
    return { size: matrix.length, path: qrPath(matrix) };
  }, [link]);
  return (
    <svg className="room-qr" data-testid="room-qr" role="img" aria-label="QR code of the join link" viewBox={`0 0 ${code.size} ${code.size}`} shapeRendering="crispEdges">
      <rect width={code.size} height={code.size} fill="#fff" />
      <path d={code.path} fill="#000" />
    </svg>
  );
}
