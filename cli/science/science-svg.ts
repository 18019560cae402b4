/**
 * A small SVG line-chart writer for `npm run figures` (no plotting library is installed).
 * One figure = a row of panels sharing a y range; each panel holds several series of (x, y) points.
 * The output is plain, readable SVG: one <path> per series, text labels, a legend.
 */

export interface Series {
  label: string;
  color: string;
  points: [number, number][];
  dash?: string;
  width?: number;
  opacity?: number;
  /** Leave out of the legend (e.g. faint per-seed lines). */
  hideInLegend?: boolean;
}

export interface Panel {
  title: string;
  series: Series[];
}

export interface FigureOptions {
  title: string;
  subtitle?: string;
  xLabel: string;
  yLabel: string;
  yMin?: number;
  yMax?: number;
  panelWidth?: number;
  panelHeight?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (x: number) => (Math.round(x * 10) / 10).toString();

function niceTicks(lo: number, hi: number, count: number): number[] {
  const span = hi - lo || 1;
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= count) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number((Math.round(v / step) * step).toPrecision(6)));
  return out;
}

export function lineFigure(panels: Panel[], opts: FigureOptions): string {
  const W = opts.panelWidth ?? 300;
  const H = opts.panelHeight ?? 220;
  const m = { left: 60, right: 14, top: 58, bottom: 44 };
  const gap = 18;
  const legendRows = Math.ceil(uniqueLegend(panels).length / 4);
  const width = m.left + panels.length * W + (panels.length - 1) * gap + m.right;
  const height = m.top + H + m.bottom + legendRows * 18 + 8;
  const xs = panels.flatMap((p) => p.series.flatMap((s) => s.points.map((q) => q[0])));
  const ys = panels.flatMap((p) => p.series.flatMap((s) => s.points.map((q) => q[1])));
  const xMin = Math.min(...xs, 0);
  const xMax = Math.max(...xs, 1);
  const yMin = opts.yMin ?? Math.min(...ys);
  const yMax = opts.yMax ?? Math.max(...ys);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${m.left}" y="20" font-size="15" font-weight="bold">${esc(opts.title)}</text>`);
  if (opts.subtitle) out.push(`<text x="${m.left}" y="37" fill="#555">${esc(opts.subtitle)}</text>`);
  panels.forEach((panel, i) => {
    const x0 = m.left + i * (W + gap);
    const y0 = m.top;
    const sx = (x: number) => x0 + ((x - xMin) / (xMax - xMin || 1)) * W;
    const sy = (y: number) => y0 + H - ((Math.min(Math.max(y, yMin), yMax) - yMin) / (yMax - yMin || 1)) * H;
    out.push(`<g>`);
    out.push(`<text x="${x0 + W / 2}" y="${y0 - 6}" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>`);
    out.push(`<rect x="${x0}" y="${y0}" width="${W}" height="${H}" fill="none" stroke="#999"/>`);
    for (const t of niceTicks(yMin, yMax, 5)) {
      out.push(`<line x1="${x0}" x2="${x0 + W}" y1="${num(sy(t))}" y2="${num(sy(t))}" stroke="#eee"/>`);
      if (i === 0) out.push(`<text x="${x0 - 6}" y="${num(sy(t) + 4)}" text-anchor="end">${t}</text>`);
    }
    for (const t of niceTicks(xMin, xMax, 5)) {
      out.push(`<line x1="${num(sx(t))}" x2="${num(sx(t))}" y1="${y0 + H}" y2="${y0 + H + 4}" stroke="#999"/>`);
      out.push(`<text x="${num(sx(t))}" y="${y0 + H + 16}" text-anchor="middle">${t}</text>`);
    }
    for (const s of panel.series) {
      if (s.points.length === 0) continue;
      const d = s.points.map((q, k) => `${k ? 'L' : 'M'}${num(sx(q[0]))},${num(sy(q[1]))}`).join(' ');
      out.push(
        `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}${s.opacity !== undefined ? ` stroke-opacity="${s.opacity}"` : ''}><title>${esc(s.label)}</title></path>`,
      );
    }
    out.push(`</g>`);
  });
  out.push(`<text x="${m.left + (width - m.left - m.right) / 2}" y="${m.top + H + 34}" text-anchor="middle">${esc(opts.xLabel)}</text>`);
  out.push(`<text transform="translate(14 ${m.top + H / 2}) rotate(-90)" text-anchor="middle">${esc(opts.yLabel)}</text>`);
  uniqueLegend(panels).forEach((s, k) => {
    const lx = m.left + (k % 4) * 230;
    const ly = m.top + H + 52 + Math.floor(k / 4) * 18;
    out.push(`<line x1="${lx}" x2="${lx + 26}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="${s.width ?? 2}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`);
    out.push(`<text x="${lx + 32}" y="${ly}">${esc(s.label)}</text>`);
  });
  out.push(`</svg>`);
  return out.join('\n') + '\n';
}

function uniqueLegend(panels: Panel[]): Series[] {
  const seen = new Map<string, Series>();
  for (const p of panels) for (const s of p.series) if (!s.hideInLegend && !seen.has(s.label)) seen.set(s.label, s);
  return [...seen.values()];
}
