/**
 * One uPlot chart that updates live. The uPlot instance is created once per chart *shape* (its
 * series, axis, theme and type size) and then only fed with `setData` as steps arrive, so a long
 * run never re-creates it. Null values are gaps; eval-only series set `spanGaps` to join their
 * points. ChartCard.tsx builds what it draws (chartModel.ts) and adds the note, table and PNG.
 *
 * The container exposes what e2e tests assert instead of pixels:
 *   data-points     non-null values of the live data lines (reference and compare lines excluded)
 *   data-steps      x values (RL steps) of the live run
 *   data-series     the labels of the live data lines, joined by '|'
 *   data-compare    the labels of the compare-layer lines, joined by '|'
 *   data-instances  how many uPlot instances this chart has created (stays 1 during a run)
 *   data-bands      shaded bands drawn (e.g. the hacking gap of a collapse chart)
 *   data-seeds      seeds drawn as mean and band ("Run N seeds"; 0: none)
 *   data-seed-means the labels of the seed-mean lines ("mean of 3 seeds · self · A"), joined by '|'
 *   data-drawn      every series uPlot draws (live, raw, guide, compare and seed lines)
 *   data-marker     the step of the marker drawn (a run stopped by a NaN or an infinity; '' for none)
 *   data-marker-label  its label, as drawn
 *   data-legend     the labels of the lines the legend keys cover (every drawn line but the faint
 *                   raw and per-seed ones), joined by '|'
 *   data-draws      redraws with new data since the instance was made (a folded chart has none)
 *   data-plot-width, data-plot-height, data-label-font, data-x-label, data-y-label
 *                   the plot area (CSS px) and the axis labels with their font, for the layout check
 *
 * Drawing is bounded (redrawScheduler.ts): new data marks the chart dirty, and it is drawn at most
 * every 250 ms, and only while on screen (an IntersectionObserver; folded panels are not). The
 * legend is ChartLegend.tsx (two keys: colours and line styles); uPlot's own legend is off. Under
 * the chart a read-out gives the values at the step under the cursor (hover, or tap).
 */
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useLab } from '../store';
import { countPoints, type Column } from '../store/series';
import { type AxisKind, yRange } from './axes';
import type { ChartMarker } from './chartModel';
import { type RedrawJob, cancel, requestRedraw, setVisible } from './redrawScheduler';
import type { SeriesDef } from './seriesDefs';

export interface ChartProps {
  testId: string;
  xLabel: string;
  yLabel: string;
  /** Every line drawn, in drawing order (the first is drawn first, i.e. behind). */
  series: SeriesDef[];
  /** [x, y1, y2, ...] aligned columns, one y per series. */
  x: number[];
  ys: Column[];
  /** Changes whenever the columns did (they are mutated in place). */
  version: number;
  /** How the y axis is ranged (axes.ts); `lengthMax` is the top of a 'length' axis. */
  axis: AxisKind;
  lengthMax?: number;
  /** Shaded bands between two series (indices into `series`), e.g. the reward gap. */
  bands?: { upper: number; lower: number; fill: string }[];
  height?: number;
  /** The live data lines (for data-points, data-series, data-steps). */
  live: { label: string; col: Column }[];
  liveSteps: number;
  compareLabels?: string[];
  /** Seeds drawn as mean and band, and the labels of their mean lines. */
  seeds?: number;
  seedLabels?: string[];
  /** A labelled vertical line at one step (chartModel.ts haltMarker). */
  marker?: ChartMarker | null;
  /** The holder element once uPlot has drawn into it (for the PNG export). */
  holderRef?: React.RefObject<HTMLDivElement | null>;
  /** The chart's redraw job (for a flush before its pixels are read). */
  jobRef?: React.RefObject<RedrawJob | null>;
  /** Height as given, also in presenter type (the hero sizes itself to the window). */
  exactHeight?: boolean;
}

/**
 * A value's name in the read-out: its label, with its arm where the label does not say it (the
 * hero's lines are "label-free reward" in every arm's chart), so each value names its arm and its
 * source ("you · label-free reward (peer)" beside "mean of 2 browsers · label-free reward (peer)";
 * not "label-free reward 0.88 · label-free reward 0.92", two values under one name).
 */
export function readoutName(s: Pick<SeriesDef, 'label' | 'armId'> & { role?: string }, besideClass = false): string {
  const named = s.armId && !s.label.split(' · ').includes(s.armId) && !s.label.includes(`(${s.armId})`) ? `${s.label} (${s.armId})` : s.label;
  // A student's own run beside the class's mean (chartModel's seed-mean lines of a class room).
  return besideClass && s.role === 'data' ? `you · ${named}` : named;
}

/** "step 12: reward 0.81 · held-out pass@1 0.32": the values at the cursor, raw lines left out. */
export function readoutText(u: Pick<uPlot, 'data'>, series: readonly SeriesDef[], idx: number | null | undefined, xLabel: string): string {
  if (idx == null) return '';
  const x = u.data[0]?.[idx];
  if (x == null) return '';
  const parts: string[] = [];
  const roles = series as readonly (SeriesDef & { role?: string })[];
  const besideClass = roles.some((s) => s.role === 'seed-mean' && /^mean of \d+ (browser|pair)s? · /.test(s.label));
  roles.forEach((s, i) => {
    if (s.raw) return;
    const v = u.data[i + 1]?.[idx];
    if (v == null || !Number.isFinite(v)) return;
    parts.push(`${readoutName(s, besideClass)} ${Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)}`);
  });
  return parts.length ? `${xLabel} ${x}: ${parts.join(' · ')}` : `${xLabel} ${x}: no value here`;
}

/** The marker's dashed line over the plot area and its label beside it, on the chart's canvas. */
function drawMarker(u: uPlot, marker: ChartMarker, color: string, fontPx: number): void {
  const dpr = devicePixelRatio || 1;
  const x = Math.round(u.valToPos(marker.step, 'x', true));
  const { top, left, width, height } = u.bbox;
  if (x < left - 1 || x > left + width + 1) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 2 * dpr;
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x, top + height);
  ctx.stroke();
  ctx.font = `600 ${fontPx * dpr}px system-ui, sans-serif`;
  // Left of the line when it is in the right half (the usual case: the last step).
  const right = x > left + width / 2;
  ctx.textAlign = right ? 'right' : 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(marker.label, x + (right ? -6 : 6) * dpr, top + 4 * dpr);
  ctx.restore();
}

/**
 * The largest font size, at most `fontPx`, at which an axis label fits along its side of the plot
 * (uPlot draws it centred there; a longer one is cut). `widthAt1px`: its width at 1 px.
 */
export function fitFontPx(widthAt1px: number, fontPx: number, available: number, minPx = 9): number {
  if (widthAt1px <= 0 || widthAt1px * fontPx <= available) return fontPx;
  return Math.max(minPx, Math.floor(available / widthAt1px));
}

function labelWidthAt1px(label: string, weightFamily: string): number {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return 0;
  ctx.font = `600 100px ${weightFamily}`;
  return ctx.measureText(label).width / 100;
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

export function UPlotChart(props: ChartProps) {
  const { testId, xLabel, yLabel, series, x, ys, version, axis, lengthMax = 0, bands, height = 220, live, liveSteps, compareLabels = [], seeds = 0, seedLabels = [], marker = null, exactHeight = false } = props;
  const ownHolder = useRef<HTMLDivElement>(null);
  const holder = props.holderRef ?? ownHolder;
  const readout = useRef<HTMLParagraphElement>(null);
  const plot = useRef<uPlot | null>(null);
  const ownJob = useRef<RedrawJob | null>(null);
  const jobRef = props.jobRef ?? ownJob;
  if (!jobRef.current) jobRef.current = { visible: false, dirty: false, draw: () => {} };
  const job = jobRef.current;
  const instances = useRef(0);
  const theme = useLab((s) => s.ui.theme);
  const presenter = useLab((s) => s.ui.presenter);
  const shapeKey = useMemo(
    () => JSON.stringify({ series, axis, lengthMax, bands, theme, presenter, height, xLabel, yLabel, marker, exactHeight }),
    [series, axis, lengthMax, bands, theme, presenter, height, xLabel, yLabel, marker, exactHeight],
  );
  const data = useMemo(() => [x, ...ys] as uPlot.AlignedData, [x, ys]);
  const dataRef = useRef(data);
  dataRef.current = data;

  // Create the instance when the shape changes (not when data arrives).
  useEffect(() => {
    const el = holder.current;
    if (!el) return;
    const ink = cssVar(el, '--ink', '#222');
    const grid = cssVar(el, '--grid', 'rgba(0,0,0,0.08)');
    const fontPx = presenter ? 16 : 12;
    const font = `${fontPx}px system-ui, sans-serif`;
    const chartHeight = presenter && !exactHeight ? height * 1.3 : height;
    const axisSize = presenter ? 56 : 44;
    // The y label runs along the plot's height: smaller type where it would not fit (no cut labels).
    // (uPlot's padding and the x axis take a few px more than their sizes: kept on the safe side)
    const plotHeight = chartHeight - axisSize - (fontPx + 10) - 24;
    const yLabelPx = fitFontPx(labelWidthAt1px(yLabel, 'system-ui, sans-serif'), fontPx, plotHeight);
    const labelFont = `600 ${yLabelPx}px system-ui, sans-serif`;
    const axisOpts = (label: string, px: number): uPlot.Axis => ({
      label,
      stroke: ink,
      font,
      labelFont: `600 ${px}px system-ui, sans-serif`,
      labelSize: fontPx + 10,
      size: axisSize,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid, width: 1 },
    });
    const widthScale = presenter ? 1.6 : 1;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: chartHeight,
      scales: {
        x: { time: false },
        y: { range: (_u, min, max) => yRange(axis, min, max, lengthMax) },
      },
      // Steps are whole numbers: no 1.5 on the x axis.
      axes: [{ ...axisOpts(xLabel, fontPx), incrs: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000] }, axisOpts(yLabel, yLabelPx)],
      // The legend is ChartLegend (colour and line-style keys); values under the cursor go to the read-out.
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 8 * widthScale } },
      series: [
        { label: xLabel },
        ...series.map(
          (s): uPlot.Series => ({
            label: s.label,
            class: s.raw ? 'u-raw' : undefined,
            stroke: s.color,
            dash: s.dash && s.dash.length ? s.dash : undefined,
            width: (s.width ?? (s.reference ? 1 : 2)) * widthScale,
            spanGaps: s.spanGaps ?? false,
            points: { show: s.points ?? false, size: (s.points ? 6 : 4) * widthScale, fill: s.color },
            value: (_u, v) => (v == null ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(3)),
          }),
        ),
      ],
      bands: bands?.map((b) => ({ series: [b.upper + 1, b.lower + 1] as [number, number], fill: b.fill })),
      hooks: {
        ...(marker ? { draw: [(u: uPlot) => drawMarker(u, marker, cssVar(el, '--error-ink', '#9b1c1c'), fontPx)] } : {}),
        setCursor: [
          (u: uPlot) => {
            if (readout.current) readout.current.textContent = readoutText(u, series, u.cursor.idx, xLabel);
          },
        ],
      },
    };
    const u = new uPlot(opts, dataRef.current, el);
    plot.current = u;
    instances.current += 1;
    el.dataset.instances = String(instances.current);
    let draws = 0;
    job.draw = () => {
      u.batch(() => u.setData(dataRef.current));
      el.dataset.draws = String(++draws);
    };
    // What the layout checks measure (e2e/layout.spec.ts: an axis label longer than its side is cut).
    const plotBox = () => {
      const dpr = devicePixelRatio || 1;
      el.dataset.plotWidth = String(Math.round(u.bbox.width / dpr));
      el.dataset.plotHeight = String(Math.round(u.bbox.height / dpr));
    };
    plotBox();
    el.dataset.labelFont = labelFont;
    el.dataset.xLabelFont = `600 ${fontPx}px system-ui, sans-serif`;
    el.dataset.xLabel = xLabel;
    el.dataset.yLabel = yLabel;
    job.dirty = false;
    // A tap puts the cursor where it landed (touch screens have no hover).
    const onTap = (e: PointerEvent) => {
      if (e.pointerType !== 'mouse') u.setCursor({ left: e.offsetX, top: e.offsetY });
    };
    u.over.addEventListener('pointerdown', onTap);
    const ro = new ResizeObserver(() => {
      const w = Math.max(200, el.clientWidth);
      if (Math.abs(w - u.width) > 1) u.setSize({ width: w, height: u.height });
      plotBox();
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.over.removeEventListener('pointerdown', onTap);
      u.destroy();
      plot.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt on a new shape only; data reaches it through the next effect
  }, [shapeKey]);

  // Only what can be seen is drawn: off screen or folded, the chart waits (redrawScheduler.ts).
  useEffect(() => {
    const el = holder.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      setVisible(job, true);
      return;
    }
    const io = new IntersectionObserver((entries) => setVisible(job, entries.some((e) => e.isIntersecting)), { rootMargin: '200px 0px' });
    io.observe(el);
    return () => {
      io.disconnect();
      cancel(job);
    };
  }, [holder, job]);

  // New data: the existing instance redraws at the scheduler's pace.
  useEffect(() => {
    if (plot.current) requestRedraw(job);
  }, [data, version, job]);

  return (
    <>
    <div
      ref={holder}
      className="chart-canvas"
      data-testid={testId}
      data-points={countPoints(live.map((l) => l.col))}
      data-steps={liveSteps}
      data-series={live.map((l) => l.label).join('|')}
      data-compare={compareLabels.join('|')}
      data-version={version}
      data-bands={bands?.length ?? 0}
      data-seeds={seeds}
      data-seed-means={seedLabels.join('|')}
      data-drawn={series.length}
      data-marker={marker?.step ?? ''}
      data-marker-label={marker?.label ?? ''}
      data-legend={series.filter((s) => !s.raw).map((s) => s.label).join('|')}
    />
    <p className="chart-readout" ref={readout} data-testid={`${testId}-readout`} />
    </>
  );
}
