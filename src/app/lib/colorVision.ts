/**
 * Colour-vision-deficiency checks for the chart palette: a colour as seen with protanopia,
 * deuteranopia or tritanopia (Machado, Oliveira and Fernandes 2009, severity 1.0, applied in
 * linear RGB), and the CIE76 distance (Delta E in CIELAB, D65) between two colours as seen. Pure
 * functions, used by colors.test.ts to keep every pair of arm colours apart for every viewer.
 */

export type Vision = 'normal' | 'protanopia' | 'deuteranopia' | 'tritanopia';

type Matrix = readonly [readonly [number, number, number], readonly [number, number, number], readonly [number, number, number]];

/** Machado et al. 2009, Table 1 at severity 1.0 (linear RGB to linear RGB). */
const MACHADO: Record<Exclude<Vision, 'normal'>, Matrix> = {
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritanopia: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};

function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** `#rrggbb` as linear RGB in [0, 1]. */
export function linearRgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1], 16);
  return [toLinear(((n >> 16) & 255) / 255), toLinear(((n >> 8) & 255) / 255), toLinear((n & 255) / 255)];
}

/** Linear RGB as seen with a deficiency (clamped to the gamut). */
export function simulate(rgb: readonly [number, number, number], vision: Vision): [number, number, number] {
  if (vision === 'normal') return [rgb[0], rgb[1], rgb[2]];
  const m = MACHADO[vision];
  const row = (r: readonly number[]) => Math.min(1, Math.max(0, r[0] * rgb[0] + r[1] * rgb[1] + r[2] * rgb[2]));
  return [row(m[0]), row(m[1]), row(m[2])];
}

/** Linear sRGB to CIELAB (D65 white). */
export function lab([r, g, b]: readonly [number, number, number]): [number, number, number] {
  const X = 0.4124 * r + 0.3576 * g + 0.1805 * b;
  const Y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const Z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(X / 0.95047);
  const fy = f(Y);
  const fz = f(Z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIE76 Delta E between two `#rrggbb` colours as a viewer with `vision` sees them (about 2.3 is just noticeable). */
export function deltaE(a: string, b: string, vision: Vision = 'normal'): number {
  const p = lab(simulate(linearRgb(a), vision));
  const q = lab(simulate(linearRgb(b), vision));
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** The closest pair of `colors` for a viewer: its distance and names. */
export function closestPair(colors: Record<string, string>, vision: Vision): { distance: number; a: string; b: string } {
  const names = Object.keys(colors);
  let best = { distance: Infinity, a: '', b: '' };
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const distance = deltaE(colors[names[i]], colors[names[j]], vision);
      if (distance < best.distance) best = { distance, a: names[i], b: names[j] };
    }
  }
  return best;
}
