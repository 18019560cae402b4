/**
 * One colour per arm and one line style (dash pattern) per member, the same in every chart,
 * legend and table. Pure functions of the spec, so a reader can check them by hand.
 *
 * Arms get their scheme's colour (self is always vermillion, peer always blue ...), so two runs of
 * the lab look alike; a second arm with the same scheme takes the first unused colour of a spare
 * palette. Colours are mid-tones that read on both the light and the dark background, and every
 * pair of scheme colours stays apart (CIE76 Delta E >= 15) as seen with normal vision, protanopia
 * and deuteranopia (>= 12 with tritanopia; colorVision.ts, tested in colors.test.ts); the member
 * dashes are the second cue that never depends on colour.
 */

export const SCHEME_COLORS: Record<string, string> = {
  oracle: '#8a8f98',
  self: '#e4572e',
  'self-soft': '#e69f00',
  peer: '#2e86de',
  ring: '#009e73',
  cohort: '#973ce9',
  teacher: '#a09f53',
  entropy: '#b34b4f',
  certainty: '#d51ba7',
};

/** Spare colours for repeated schemes (Okabe-Ito and Tableau hues not used above). */
export const SPARE_COLORS = ['#56b4e9', '#009e73', '#cc79a7', '#7f3c8d', '#e73f74', '#3969ac', '#80ba5a', '#f2b701'];

/** Dash patterns (uPlot `dash`, canvas setLineDash) by member position: solid first. */
export const MEMBER_DASHES: number[][] = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [14, 4, 2, 4, 2, 4]];

export function armColors(arms: readonly { id: string; scheme: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  const used = new Set<string>();
  for (const arm of arms) {
    const preferred = SCHEME_COLORS[arm.scheme];
    let color = preferred && !used.has(preferred) ? preferred : undefined;
    if (!color) color = SPARE_COLORS.find((c) => !used.has(c)) ?? SPARE_COLORS[used.size % SPARE_COLORS.length];
    out[arm.id] = color;
    used.add(color);
  }
  return out;
}

export function memberDashes(memberIds: readonly string[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  memberIds.forEach((id, i) => {
    out[id] = MEMBER_DASHES[i % MEMBER_DASHES.length];
  });
  return out;
}

/** SVG `stroke-dasharray` for a dash pattern ('' = solid), for legend swatches. */
export function dashArray(dash: readonly number[]): string {
  return dash.join(' ');
}

/** `#rrggbb` with an alpha in [0, 1] as `rgba(...)`, for bands and fills. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/**
 * Heatmap colour of a Cohen's kappa in [-1, 1] for the error-overlap grid: white-ish at 0
 * (independent errors, the good case for peers), deepening red as kappa -> 1 (shared errors),
 * blue below 0. Returns an rgba string for the cell background.
 */
export function kappaColor(kappa: number | null): string {
  if (kappa == null || Number.isNaN(kappa)) return 'transparent';
  const k = Math.max(-1, Math.min(1, kappa));
  return k >= 0 ? `rgba(214, 39, 40, ${(0.08 + 0.62 * k).toFixed(3)})` : `rgba(31, 119, 180, ${(0.08 + 0.62 * -k).toFixed(3)})`;
}
