/**
 * Metrics export (exportMetrics.ts): CSV escaping, null as an empty cell, exact number round trips,
 * one row per step x arm x member, and the JSON file's columns.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { armMetrics, stepEvent } from '../store/fixtures';
import { MEMBER_METRICS, appendStep, emptySeries } from '../store/series';
import { MEMBER_CSV_HEADER, PAIR_CSV_HEADER, csvCell, fileStem, memberMetricsCsv, metricsFile, metricsJson, pairMetricsCsv, toCsv } from './exportMetrics';

/** A small RFC 4180 reader, to check that what is written reads back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

function series() {
  const s = emptySeries();
  appendStep(s, stepEvent(1, [armMetrics('self', 'self', { A: { reward: 0.1 + 0.2 }, B: { reward: 1 / 3, pseudoLabelAccuracy: null } }), armMetrics('oracle', 'oracle', { A: { reward: -0 } })]));
  appendStep(s, stepEvent(2, [armMetrics('self', 'self', { A: { reward: 5e-324, evalPassAt1: 0.45 }, B: { reward: 1e21 } }, { ensembleMajAtG: 0.625 })]));
  return s;
}

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks; leaves plain text and numbers bare', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(0.30000000000000004)).toBe('0.30000000000000004');
    expect(csvCell(-2.5)).toBe('-2.5');
  });

  it('writes null, undefined and non-finite numbers as empty cells', () => {
    expect([null, undefined, Number.NaN, Infinity].map(csvCell)).toEqual(['', '', '', '']);
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('reads back: any text and any double', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (rows) => {
        const back = readCsv(toCsv(rows));
        expect(back).toHaveLength(rows.length);
        rows.forEach((r, i) =>
          r.forEach((v, j) => {
            if (typeof v === 'number') expect(Number(back[i][j])).toBe(v === 0 ? 0 : v); // -0 is written as 0
            else expect(back[i][j]).toBe(/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
          }),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('members CSV', () => {
  it('has every metric of MEMBER_METRICS as a column and one row per step x arm x member', () => {
    const rows = readCsv(memberMetricsCsv(series()));
    expect(rows[0]).toEqual([...MEMBER_CSV_HEADER]);
    expect(rows[0].slice(4, 4 + MEMBER_METRICS.length)).toEqual([...MEMBER_METRICS]);
    // Step 1: self A, self B, oracle A; step 2: the same three (oracle missing: empty cells).
    expect(rows.slice(1).map((r) => r.slice(0, 4).join(' '))).toEqual(['1 self self A', '1 self self B', '1 oracle oracle A', '2 self self A', '2 self self B', '2 oracle oracle A']);
  });

  it('round-trips the numbers exactly and writes missing values as empty cells', () => {
    const rows = readCsv(memberMetricsCsv(series()));
    const col = (name: string) => rows[0].indexOf(name);
    expect(Number(rows[1][col('reward')])).toBe(0.1 + 0.2);
    expect(Number(rows[2][col('reward')])).toBe(1 / 3);
    expect(Number(rows[4][col('reward')])).toBe(5e-324);
    expect(Number(rows[5][col('reward')])).toBe(1e21);
    expect(rows[2][col('pseudoLabelAccuracy')]).toBe('');
    expect(rows[1][col('evalPassAt1')]).toBe('');
    expect(Number(rows[4][col('evalPassAt1')])).toBe(0.45);
    expect(rows[6][col('reward')]).toBe('');
    expect(rows[4][col('ensembleMajAtG')]).toBe('0.625');
    expect(rows[5][col('ensembleMajAtG')]).toBe('0.625');
    expect(rows[1][col('ensembleMajAtG')]).toBe('');
  });
});

describe('pairs CSV and JSON', () => {
  it('writes one row per step x arm x pair with every PAIR_METRICS column', () => {
    const rows = readCsv(pairMetricsCsv(series()));
    expect(rows[0]).toEqual([...PAIR_CSV_HEADER]);
    expect(rows.slice(1).map((r) => r.slice(0, 5).join(' '))).toEqual(['1 self self A B', '2 self self A B']);
    expect(Number(rows[1][rows[0].indexOf('kappa')])).toBe(0.2);
    expect(rows[1][rows[0].indexOf('evalKappa')]).toBe('');
  });

  it('holds the chart columns, aligned with steps, nulls kept', () => {
    const s = series();
    const file = JSON.parse(metricsJson(s, { name: 'r', spec: null, backend: 'wasm' }));
    expect(file).toEqual(JSON.parse(JSON.stringify(metricsFile(s, { name: 'r', spec: null, backend: 'wasm' }))));
    expect(file.format).toBe('cohort-lab-metrics');
    expect(file.steps).toEqual([1, 2]);
    expect(file.arms.map((a: { id: string }) => a.id)).toEqual(['self', 'oracle']);
    expect(file.arms[0].members.A.reward).toEqual([0.1 + 0.2, 5e-324]);
    expect(file.arms[0].members.B.pseudoLabelAccuracy).toEqual([null, 0.75]);
    expect(file.arms[1].members.A.reward).toEqual([0, null]);
    expect(file.arms[0].pairs[0]).toMatchObject({ a: 'A', b: 'B', kappa: [0.2, 0.2] });
    expect(file.arms[0].ensembleMajAtG).toEqual([null, 0.625]);
  });

  it('names files from the run name', () => {
    expect(fileStem('Collapse, seed 1 (wasm)')).toBe('cohort-lab-collapse-seed-1-wasm');
    expect(fileStem('<script>')).toBe('cohort-lab-script');
    expect(fileStem('…')).toBe('cohort-lab-run');
  });
});
