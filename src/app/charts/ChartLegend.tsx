/**
 * A chart's legend as two keys (legendKeys.ts): "Colours" (arms, or what a line measures) and
 * "Lines" (styles), each entry's swatch drawn as the line. Values at a step are in the read-out.
 */
import type { KeyEntry, LegendKeys } from './legendKeys';
import { LineSwatch } from './LineSwatch';

function Key({ name, entries, testId }: { name: string; entries: KeyEntry[]; testId: string }) {
  if (entries.length === 0) return null;
  return (
    <div className="legend-key" data-testid={testId} data-entries={entries.length}>
      <span className="legend-key-name">{name}</span>
      <ul aria-label={name}>
        {entries.map((e) => (
          <li key={e.label} className="legend-entry">
            <LineSwatch entry={e} />
            {e.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ChartLegend({ keys, testId }: { keys: LegendKeys; testId: string }) {
  return (
    <div className="chart-legend" data-testid={`${testId}-legend`}>
      <Key name="Colours" entries={keys.colors} testId={`${testId}-legend-colours`} />
      <Key name="Lines" entries={keys.styles} testId={`${testId}-legend-lines`} />
    </div>
  );
}
