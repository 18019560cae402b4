/** A small multiple's heading: the arm's colour as a swatch (text stays in the ink colour, readable on both themes), its id and scheme. */
export function ArmHeading({ armId, scheme, color }: { armId: string; scheme: string; color: string | undefined }) {
  return (
    <h3>
      <span className="arm-swatch" style={{ background: color }} aria-hidden="true" />
      {armId} <span className="sub">({scheme})</span>
    </h3>
  );
}
