/** A legend swatch drawn as the line itself: its colour, width and dash, a dot for evaluation lines, or a band. */
import type { KeyEntry } from './legendKeys';

export function LineSwatch({ entry }: { entry: Pick<KeyEntry, 'color' | 'dash' | 'width' | 'points' | 'band'> }) {
  return (
    <svg className="line-swatch" width="30" height="12" viewBox="0 0 30 12" aria-hidden="true" focusable="false">
      {entry.band ? (
        <rect x="1" y="2" width="28" height="8" fill={entry.color} stroke={entry.color} strokeWidth="0.75" />
      ) : (
        <line x1="1" y1="6" x2="29" y2="6" stroke={entry.color} strokeWidth={Math.max(1, Math.min(4, entry.width))} strokeDasharray={entry.dash.length ? entry.dash.join(' ') : undefined} />
      )}
      {entry.points && <circle cx="15" cy="6" r="3" fill={entry.color} />}
    </svg>
  );
}
