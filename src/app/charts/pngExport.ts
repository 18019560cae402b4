/**
 * Charts as PNG files. uPlot draws the plot and its axes on a canvas but the title and legend in
 * HTML, so a chart's image is composed on a new canvas: the title, the uPlot canvas, and the
 * legend drawn again from the series (colour, dash, label), on the page's background colour.
 * The report stacks the scoreboard's lines and every chart's image into one PNG. Layout:
 * pngLayout.ts (pure, tested); this file only draws and downloads.
 */
import { downloadBlob } from '../lib/download';
import { type LegendEntry, PNG_STYLE, chartImageLayout, stackLayout, titleLineHeight, wrapText } from './pngLayout';

export interface Colors {
  background: string;
  ink: string;
  muted: string;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The page's colours (CSS variables), for a PNG that looks like the screen. */
export function pageColors(el: Element = document.documentElement): Colors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { background: v('--panel', '#ffffff'), ink: v('--ink', '#1d232b'), muted: v('--muted', '#5d6672') };
}

function ratio(): number {
  return Math.max(1, Math.min(3, window.devicePixelRatio || 1));
}

function context(width: number, height: number, r: number): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * r);
  canvas.height = Math.ceil(height * r);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw on a canvas.');
  ctx.scale(r, r);
  return { canvas, ctx };
}

/** One chart as an image: title, plot (the uPlot canvas as drawn) and legend. */
export function composeChart(plotCanvas: HTMLCanvasElement, title: string, legend: readonly LegendEntry[], colors: Colors): HTMLCanvasElement {
  const r = ratio();
  const cssW = plotCanvas.getBoundingClientRect().width || plotCanvas.width / r;
  const cssH = plotCanvas.getBoundingClientRect().height || plotCanvas.height / r;
  const legendFont = `${PNG_STYLE.legendPx}px ${FONT}`;
  const titleFont = `600 ${PNG_STYLE.titlePx}px ${FONT}`;
  const measure = context(1, 1, 1).ctx;
  measure.font = titleFont;
  const titleLines = wrapText(title, cssW, (s) => measure.measureText(s).width);
  measure.font = legendFont;
  const widths = legend.map((l) => measure.measureText(l.label).width);
  const layout = chartImageLayout(cssW, cssH, widths, PNG_STYLE, titleLines.length);
  const { canvas, ctx } = context(layout.width, layout.height, r);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, layout.width, layout.height);
  ctx.fillStyle = colors.ink;
  ctx.textBaseline = 'top';
  ctx.font = titleFont;
  titleLines.forEach((line, i) => ctx.fillText(line, layout.title.x, layout.title.y + i * titleLineHeight()));
  ctx.drawImage(plotCanvas, layout.plot.x, layout.plot.y, layout.plot.w, layout.plot.h);
  ctx.font = legendFont;
  ctx.textBaseline = 'middle';
  legend.forEach((l, i) => {
    const p = layout.legend[i];
    const mid = p.y + PNG_STYLE.rowHeight / 2;
    ctx.strokeStyle = l.color;
    ctx.lineWidth = Math.max(1.5, l.width);
    ctx.setLineDash(l.dash);
    ctx.beginPath();
    ctx.moveTo(p.x, mid);
    ctx.lineTo(p.x + PNG_STYLE.swatch, mid);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = colors.ink;
    ctx.fillText(l.label, p.x + PNG_STYLE.swatch + PNG_STYLE.swatchGap, mid);
  });
  return canvas;
}

/** Paragraphs of text as an image block (the report's heading and scoreboard), wrapped to the width. */
export function composeText(paragraphs: readonly { text: string; px: number; bold?: boolean; muted?: boolean }[], width: number, colors: Colors): HTMLCanvasElement {
  const r = ratio();
  const lineGap = 6;
  const inner = width - 2 * PNG_STYLE.pad;
  const measure = context(1, 1, 1).ctx;
  const fontOf = (p: { px: number; bold?: boolean }) => `${p.bold ? '600 ' : ''}${p.px}px ${FONT}`;
  const lines = paragraphs.flatMap((p) => {
    measure.font = fontOf(p);
    return wrapText(p.text, inner, (s) => measure.measureText(s).width).map((text) => ({ ...p, text }));
  });
  const height = lines.reduce((h, l) => h + l.px + lineGap, 0) + 2 * PNG_STYLE.pad;
  const { canvas, ctx } = context(width, height, r);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, width, height);
  ctx.textBaseline = 'top';
  let y = PNG_STYLE.pad;
  for (const l of lines) {
    ctx.font = fontOf(l);
    ctx.fillStyle = l.muted ? colors.muted : colors.ink;
    ctx.fillText(l.text, PNG_STYLE.pad, y);
    y += l.px + lineGap;
  }
  return canvas;
}

/** Images stacked into one (the whole report). */
export function stackImages(images: readonly HTMLCanvasElement[], colors: Colors): HTMLCanvasElement {
  const r = ratio();
  const blocks = images.map((c) => ({ w: c.width / r, h: c.height / r }));
  const layout = stackLayout(blocks);
  const { canvas, ctx } = context(layout.width, layout.height, r);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, layout.width, layout.height);
  images.forEach((img, i) => ctx.drawImage(img, layout.positions[i].x, layout.positions[i].y, blocks[i].w, blocks[i].h));
  return canvas;
}

/** Save a canvas as a PNG file through the browser's download. */
export function downloadPng(canvas: HTMLCanvasElement, fileName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) {
        reject(new Error('The image could not be encoded as PNG.'));
        return;
      }
      downloadBlob(fileName, blob);
      resolve();
    }, 'image/png');
  });
}
