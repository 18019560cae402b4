/**
 * The charts on the page, for the report PNG: each ChartCard registers how to draw itself as an
 * image while it is mounted; the report takes them in page order.
 */
import type { LegendEntry } from './pngLayout';

export interface RegisteredChart {
  id: string;
  title: string;
  /** The element the chart lives in (its order on the page decides its place in the report). */
  element(): HTMLElement | null;
  canvas(): HTMLCanvasElement | null;
  legend(): LegendEntry[];
}

const charts = new Map<string, RegisteredChart>();

/** Register a chart; returns the function that removes it. */
export function registerChart(chart: RegisteredChart): () => void {
  charts.set(chart.id, chart);
  return () => {
    if (charts.get(chart.id) === chart) charts.delete(chart.id);
  };
}

/** The registered charts that are on the page, top to bottom. */
export function chartsInPageOrder(): RegisteredChart[] {
  const on = [...charts.values()].filter((c) => c.element()?.isConnected && c.canvas());
  return on.sort((a, b) => {
    const ea = a.element() as HTMLElement;
    const eb = b.element() as HTMLElement;
    return ea.compareDocumentPosition(eb) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
}
