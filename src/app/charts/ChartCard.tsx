/**
 * A chart as the panels show it: the live run and every compare layer drawn by one chart
 * definition (`build`), smoothed as the view controls say, on an axis that does not mislead
 * (axes.ts); a line of text when the data is flat ("constant at 6.00"); a Table toggle with the
 * same numbers; a PNG download of the chart with its title and legend.
 *
 * `build` maps a run's columns to the chart's lines; keep it stable (useCallback) so the model is
 * only rebuilt when data, layers or smoothing change.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLab } from '../store';
import type { RunSeries } from '../store/series';
import { type AxisKind, constantNote, lengthAxisMax } from './axes';
import { type ChartLinesWithBands, buildChartModel, chartTable, haltMarker, legendEntries } from './chartModel';
import { registerChart } from './chartRegistry';
import { aggregateSeedLines } from './seedAggregate';
import { classMeanThrough } from '../room/classProgress';
import { bandResults, bandUnit } from '../store/roomSlice';
import { ChartTable } from './ChartTable';
import { composeChart, composeText, downloadPng, pageColors, stackImages } from './pngExport';
import { pageVerdictSentence } from '../run/verdictOnPage';
import { pngFileName } from './pngLayout';
import { UPlotChart } from './UPlotChart';
import { ChartLegend } from './ChartLegend';
import { legendKeys } from './legendKeys';
import { type RedrawJob, flush } from './redrawScheduler';
import { useRunView } from './useRunView';

export interface ChartCardProps {
  testId: string;
  /** Accessible name of the chart, the title of its PNG and the caption of its table. */
  title: string;
  xLabel?: string;
  yLabel: string;
  axis: AxisKind;
  build: (run: RunSeries) => ChartLinesWithBands;
  height?: number;
  /** Height as given, also in presenter type (the hero view sizes its charts to the window). */
  exactHeight?: boolean;
  /** Leave out the legend (the hero view has one key for its charts). */
  noLegend?: boolean;
}

function safeLengthMax(spec: Parameters<typeof lengthAxisMax>[0]): number {
  try {
    return lengthAxisMax(spec);
  } catch {
    return 0; // a draft being edited (difficulty out of range): the data decides
  }
}

export function ChartCard({ testId, title, xLabel = 'RL step', yLabel, axis, build, height, exactHeight, noLegend }: ChartCardProps) {
  const { series, version, spec, styles } = useRunView();
  const compare = useLab((s) => s.compare);
  const smoothing = useLab((s) => s.ui.smoothing);
  // A run stopped by a NaN or an infinity: every chart marks the step (RunState.halt).
  const halt = useLab((s) => s.run.halt);
  const marker = useMemo(() => haltMarker(halt), [halt]);
  const [showTable, setShowTable] = useState(false);
  const holder = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const job = useRef<RedrawJob | null>(null);

  // "Run N seeds": the finished seeds as mean and band (rebuilt when a seed finishes, not every step);
  // in a class room, every browser's run the same way (rebuilt at most once a second).
  const seedResults = useLab(bandResults);
  const unit = useLab(bandUnit);
  const through = useLab((s) => classMeanThrough(s.room.results));
  const seeds = useMemo(
    () => (seedResults.length ? aggregateSeedLines(seedResults.map((r) => ({ x: r.series.x, lines: build(r.series) })), unit, through) : null),
    [build, seedResults, unit, through],
  );

  const model = useMemo(() => {
    const layers = compare.map((l) => ({ label: l.label, x: l.series.x, lines: build(l.series) }));
    return buildChartModel(series.x, build(series), layers, smoothing, seeds, marker);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version: the series grow in place (series.ts), version says when
  }, [build, series, version, compare, smoothing, seeds, marker]);
  const note = useMemo(() => constantNote(model.live), [model]);
  const keys = useMemo(() => legendKeys(model.series, styles, model.bands), [model, styles]);
  const lengthMax = axis === 'length' ? safeLengthMax(spec) : 0;
  const modelRef = useRef(model);
  modelRef.current = model;

  // The pixels are read (PNG, report): draw what the scheduler still holds back first.
  const canvas = useCallback(() => {
    if (job.current) flush(job.current);
    return holder.current?.querySelector('canvas') ?? null;
  }, []);
  useEffect(
    () => registerChart({ id: testId, title, element: () => figure.current, canvas, legend: () => legendEntries(modelRef.current) }),
    [testId, title, canvas],
  );

  const exportPng = () => {
    const c = canvas();
    if (!c) return;
    const colors = pageColors();
    const chart = composeChart(c, title, legendEntries(model), colors);
    // The verdict over the page's block of seeds travels with the chart (run/verdictOnPage.ts).
    const verdict = pageVerdictSentence(useLab.getState());
    const r = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    const image = verdict ? stackImages([composeText([{ text: verdict, px: 15, bold: true }], chart.width / r, colors), chart], colors) : chart;
    void downloadPng(image, pngFileName(title));
  };
  const tableId = `${testId}-table`;
  const table = showTable ? chartTable(xLabel, model.x, model.table) : null;

  return (
    <figure className="chart" role="group" aria-label={title} ref={figure}>
      <UPlotChart
        testId={testId}
        xLabel={xLabel}
        yLabel={yLabel}
        series={model.series}
        x={model.x}
        ys={model.ys}
        version={version}
        axis={axis}
        lengthMax={lengthMax}
        bands={model.bands}
        height={height}
        live={model.live}
        liveSteps={series.x.length}
        compareLabels={model.compareLabels}
        seeds={model.seeds}
        seedLabels={model.seedLabels}
        marker={model.marker}
        holderRef={holder}
        jobRef={job}
        exactHeight={exactHeight}
      />
      {!noLegend && <ChartLegend keys={keys} testId={testId} />}
      {note && (
        <p className="chart-note constant-note" data-testid={`${testId}-constant`}>
          Flat: {note}.
        </p>
      )}
      <div className="chart-tools">
        <button type="button" aria-pressed={showTable} aria-controls={showTable ? tableId : undefined} aria-label={`Table of ${title}`} data-testid={`${testId}-table-toggle`} onClick={() => setShowTable(!showTable)}>
          Table
        </button>
        <button type="button" aria-label={`Download PNG of ${title}`} title="Download this chart as a PNG image" data-testid={`${testId}-png`} onClick={exportPng}>
          PNG
        </button>
      </div>
      {table && <ChartTable id={tableId} caption={`${title}${smoothing > 0 ? ` (raw, and smoothed with weight ${smoothing.toFixed(2)})` : ''}`} head={table.head} rows={table.rows} />}
    </figure>
  );
}
