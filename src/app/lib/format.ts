/** Number formatting for the status bar, tables and chart axes. Pure; `null` prints as an em dash. */

export const MISSING = '—';

export function fmtFixed(x: number | null | undefined, digits = 2): string {
  if (x == null || !Number.isFinite(x)) return MISSING;
  return x.toFixed(digits);
}

/** 0.4213 -> "42%"; with digits=1 -> "42.1%". */
export function fmtPercent(x: number | null | undefined, digits = 0): string {
  if (x == null || !Number.isFinite(x)) return MISSING;
  return `${(x * 100).toFixed(digits)}%`;
}

/** A rate with a unit: 1234.5 -> "1.23k tok/s"; small rates keep one decimal. */
export function fmtRate(x: number | null | undefined, unit: string): string {
  if (x == null || !Number.isFinite(x)) return `${MISSING} ${unit}`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M ${unit}`;
  if (x >= 1e4) return `${(x / 1e3).toFixed(1)}k ${unit}`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(2)}k ${unit}`;
  if (x >= 10) return `${x.toFixed(0)} ${unit}`;
  if (x >= 1) return `${x.toFixed(1)} ${unit}`;
  return `${x.toFixed(2)} ${unit}`;
}

/** Milliseconds as "42 s", "3 min 05 s", "1 h 02 min"; under a second "<1 s". */
export function fmtDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms) || ms < 0) return MISSING;
  const s = Math.round(ms / 1000);
  if (s < 1) return '<1 s';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** Parameter counts: 104321 -> "104K", 1.2e6 -> "1.2M". */
export function fmtParams(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}K`;
  return String(n);
}

/** A completion for display: null (hit the length cap) is shown as such, never as HTML. */
export function fmtCompletion(c: string | null): string {
  return c == null ? '(hit length cap)' : c === '' ? '(empty)' : c;
}
