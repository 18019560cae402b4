/**
 * Result files of every earlier writer (cli/science/fixtures/, made as its README says) still load through
 * parseResultFile and give the tables they gave (npm run science -- --table, cli/science/science-stats.ts);
 * a bad result file is one line from each CLI that reads them, with its exit code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseResultFile, type ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { baseTable, kappaTable, markdownTable, perSeedTable } from './science-stats';

const FIXTURES = join(process.cwd(), 'cli', 'science', 'fixtures');
/** The writers whose files the fixtures are: the commit each format began with. */
const WRITERS = ['b1c478b', '069209e', '775b09b'] as const;
const fixture = (writer: string, ext = 'json') => join(FIXTURES, `results-v1-${writer}.${ext}`);

/** What `npm run science -- --table FILE` prints. */
const tables = (file: ExperimentResultFile) =>
  `seeds ${file.runs.map((r) => r.seed).join(', ')}\n\n${baseTable(file)}\n\n${kappaTable(file)}\n\n${markdownTable(file)}\n\n${perSeedTable(file)}\n`;

function load(writer: string): ExperimentResultFile {
  const r = parseResultFile(readFileSync(fixture(writer), 'utf8'));
  if (!r.ok) throw new Error(r.error);
  return r.file;
}

describe('result files of earlier writers', () => {
  it('are small and are version 1, as those writers wrote them', () => {
    for (const w of WRITERS) {
      const text = readFileSync(fixture(w), 'utf8');
      expect(text.length, w).toBeLessThan(30_000);
      expect(JSON.parse(text).version, w).toBe(1);
    }
  });

  it.each(WRITERS)('%s: loads as version 2 and gives the tables it gave', (writer) => {
    const file = load(writer);
    expect(file.version).toBe(2);
    expect(tables(file)).toBe(readFileSync(fixture(writer, 'tables.md'), 'utf8'));
  });

  it('the first writer: what it did not measure is a "-" in the tables, not a number', () => {
    const table = markdownTable(load('b1c478b')).split('\n');
    // own vote acc, rescue, shared error: columns 10-12.
    for (const row of table.slice(2)) expect(row.split(' | ').slice(9, 12)).toEqual(['-', '-', '-']);
    expect(kappaTable(load('b1c478b'))).toMatch(/\| A–B \| [^|]+ \| - \| [^|]+ \| - \|$/);
    expect(load('b1c478b').runs[0].arms[0].members[0].history[0].kl).toBeNull();
  });
});

describe('a bad result file: one line from each CLI, with its exit code', () => {
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const dir = mkdtempSync(join(tmpdir(), 'result-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) => spawnSync(tsx, args, { encoding: 'utf8', timeout: 120_000 });
  const newer = JSON.stringify({ ...JSON.parse(readFileSync(fixture('775b09b'), 'utf8')), version: 3 });
  const says = 'is not a result file this version reads: it was made by a newer Cohort Lab (result file format v3; this version reads up to v2). Update Cohort Lab to read it';

  it('science --table and figures: exit 2, "error: <file> is not a result file …"', () => {
    const file = join(dir, 'newer.json');
    writeFileSync(file, newer);
    for (const args of [['cli/science/science.ts', '--table', file], ['cli/science/figures.ts', file, '--out', join(dir, 'f.svg')]]) {
      const r = run(...args);
      expect(r.status, args[0]).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, args[0]).toHaveLength(1);
      expect(lines[0]).toContain(`error: ${file} ${says}`);
    }
  });

  it('science --table reads an old file as the current one', () => {
    const r = run('cli/science/science.ts', '--table', fixture('b1c478b'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(fixture('b1c478b', 'tables.md'), 'utf8'));
  });

  it('references --from: the file refused in one line, nothing written, exit 1', () => {
    const from = join(dir, 'from');
    rmSync(from, { recursive: true, force: true });
    spawnSync('mkdir', ['-p', from]);
    writeFileSync(join(from, 'quick.json'), '{"version": 2, "spec": ');
    const r = run('cli/references/references.ts', '--from', from, '--preset', 'quick', '--out', join(dir, 'refs'));
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `refused: ${join(from, 'quick.json')} is not a result file this version reads: it is not valid JSON (cut short, or not a result file)`,
      'nothing written',
    ]);
  });
});
