/**
 * The whole report as one PNG: a heading (experiment, seed, step, backend), the scoreboard's
 * lines and every chart on the page in page order (chartRegistry.ts), each with its title and
 * legend, stacked on the page's background.
 */
import { chartsInPageOrder } from '../charts/chartRegistry';
import { composeChart, composeText, downloadPng, pageColors, stackImages } from '../charts/pngExport';
import type { ScoreRow } from './scoreboard';
import { collapseDefinition, scoreboardLines } from './scoreboard';

export interface ReportHeading {
  title: string;
  subtitle: string;
  collapseDelta: number;
  /** The verdict over the page's block of seeds, for a friend (null: none). */
  verdict?: string | null;
}

/** Compose and download the report; resolves with the number of charts in it. */
export async function downloadReportPng(heading: ReportHeading, rows: readonly ScoreRow[]): Promise<number> {
  const colors = pageColors();
  const charts = chartsInPageOrder()
    .map((c) => {
      const canvas = c.canvas();
      return canvas ? composeChart(canvas, c.title, c.legend(), colors) : null;
    })
    .filter((c): c is HTMLCanvasElement => c != null);
  const r = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
  const width = Math.max(720, ...charts.map((c) => c.width / r));
  const text = composeText(
    [
      { text: heading.title, px: 24, bold: true },
      { text: heading.subtitle, px: 15, muted: true },
      ...(heading.verdict ? [{ text: heading.verdict, px: 17, bold: true }] : []),
      ...scoreboardLines(rows).map((line) => ({ text: line, px: 18 })),
      { text: collapseDefinition(heading.collapseDelta), px: 12, muted: true },
    ],
    width,
    colors,
  );
  await downloadPng(stackImages([text, ...charts], colors), 'cohort-lab-report.png');
  return charts.length;
}
