/**
 * A chart's legend as two short keys: one for what the colours
 * mean (the arms, or what a line measures: green is what is correct), one for the line styles
 * (member A solid, B dashed, a reference run, the seeds' band, an ensemble). A line "self · A" is
 * the arm self in member A's style, so 3 arms x 2 members need 3 + 2 entries, not 6. Pure: derived
 * from the lines a chart draws (chartModel.ts) and the run's colours and dashes (useRunView).
 */
import type { DrawnSeries } from './chartModel';
import type { Styles } from './seriesDefs';

/** More entries than this in one key is a legend no one reads (e2e/layout.spec.ts checks it). */
export const MAX_KEY_ENTRIES = 6;

/** The colour of entries that stand for a style, not a colour ("member B" is drawn in ink). */
export const INK = 'currentColor';

export interface KeyEntry {
  label: string;
  color: string;
  dash: number[];
  width: number;
  /** Drawn with a dot (sparse evaluation lines). */
  points?: boolean;
  /** A shaded band, not a line. */
  band?: boolean;
}

export interface LegendKeys {
  colors: KeyEntry[];
  styles: KeyEntry[];
}

export const SEPARATOR = ' · ';

function add(list: KeyEntry[], e: KeyEntry): void {
  if (!list.some((x) => x.label === e.label)) list.push(e);
}

/** The two keys of the lines drawn; `bands` are the labelled shaded areas (hacking gap, seeds' range). */
export function legendKeys(series: readonly DrawnSeries[], styles: Styles, bands: readonly { label?: string; fill: string }[] = []): LegendKeys {
  const out: LegendKeys = { colors: [], styles: [] };
  // Every compared run (a reference, an overlaid saved run) is drawn the same way, faint and
  // dashed: one entry says so, named by the run when there is one.
  const layers = new Set<string>();
  let compare: KeyEntry | null = null;
  for (const s of series) {
    if (s.raw || s.role === 'raw' || s.role === 'seed' || s.role === 'seed-band') continue;
    if (s.role === 'compare') {
      layers.add(s.layer ?? 'compared run');
      if (!compare) {
        compare = { label: '', color: INK, dash: s.dash ?? [], width: 1.5 };
        out.styles.push(compare);
      }
      compare.label = layers.size === 1 ? [...layers][0] : `${layers.size} compared runs`;
      continue;
    }
    let label = s.label;
    if (s.role === 'seed-mean') label = label.slice(label.indexOf(SEPARATOR) + SEPARATOR.length);
    const tokens = label.split(SEPARATOR);
    const arm = tokens.find((t) => t in styles.arm);
    const member = tokens.find((t) => t in styles.dash && t !== arm);
    const rest = tokens.filter((t) => t !== arm && t !== member);
    if (arm) add(out.colors, { label: arm, color: styles.arm[arm], dash: [], width: 3 });
    if (member) add(out.styles, { label: `member ${member}`, color: INK, dash: styles.dash[member] ?? [], width: 2 });
    if (rest.length) {
      const kind = rest.join(SEPARATOR);
      const named = /^[^\s]+–[^\s]+$/.test(kind) ? `pair ${kind}` : kind;
      const entry = { label: named, color: arm ? INK : s.color, dash: member ? [] : (s.dash ?? []), width: s.width ?? (s.reference ? 1 : 2), points: s.points };
      // A measure in its own colour ("correct (batch)" in green) belongs to the colours; one drawn in its arm's colour, to the styles.
      add(arm ? out.styles : out.colors, entry);
    }
  }
  for (const b of bands) if (b.label) add(out.styles, { label: b.label, color: b.fill, dash: [], width: 0, band: true });
  return out;
}
