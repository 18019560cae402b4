/**
 * `npm run bench -- --startup N [--page-query Q]`: the link opened N times, each in a fresh browser
 * profile (cli/bench/bench-browser.ts, runPageBench), and where the seconds from Start to the first RL step
 * went in each: the page's own start-up timeline (src/app/store/progress.ts). Into
 * bench/results/startup.json and BENCHMARKS' <!-- startup --> section, which is made from it.
 */
import type { PageTiming } from './bench-browser';

export interface StartupTiming {
  query: string;
  browser: string;
  backend: string;
  /** Seconds from opening the page to Start pressed (as soon as it was enabled), the first RL step shown, the end. */
  startS: number;
  firstStepS: number | null;
  doneS: number | null;
  /** The page's marks, ms since Start. */
  marks: { phase: string; atMs: number }[];
  load: number | null;
  date: string;
}

export function startupOf(t: PageTiming): StartupTiming {
  return {
    query: t.query,
    browser: t.browser,
    backend: t.backend,
    startS: Math.round(t.startEnabledS * 100) / 100,
    firstStepS: t.firstStepS === null ? null : Math.round(t.firstStepS * 100) / 100,
    doneS: t.doneS === null ? null : Math.round(t.doneS * 100) / 100,
    marks: t.startup?.marks ?? [],
    load: t.load ?? null,
    date: t.date,
  };
}

const PHASES = ['backend', 'warm', 'base', 'step'] as const;
const WORDS: Record<(typeof PHASES)[number], string> = {
  backend: 'backend chosen',
  warm: 'warm start began',
  base: 'warm starts ready, base evaluated',
  step: 'first RL step shown',
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** BENCHMARKS' start-up section: one row per run, then the median first step per link and browser. */
export function startupSection(runs: readonly StartupTiming[]): string {
  const s = (x: number | null) => (x === null ? 'not reached' : x.toFixed(1));
  const dates = [...new Set(runs.map((r) => r.date))].sort().join(', ');
  const lines = [
    `## From opening a link to its first RL step, phase by phase, ${dates}`,
    '',
    '`npm run bench -- --no-node --no-browser --no-bundle --no-torch --startup 3`: the production build served by `vite preview`, ' +
      'the link opened in a fresh browser profile each time and Start pressed as soon as it was enabled. Seconds from ' +
      'opening the page; the phases are the page\'s own start-up timeline (the run\'s Details, "Start-up"): the seconds ' +
      'each took after the one before, a dash where it was not a phase of that run. Load: the machine\'s 1-minute load ' +
      'average when the run ended (2 cores). Targets: the default link\'s first RL step within 3 s of opening and its end within ' +
      '18 s, `peers-teach`\'s end within 30 s (medians of 3).',
    '',
    `| link | browser | backend | Start pressed (s) | ${PHASES.map((p) => WORDS[p]).join(' | ')} | first RL step (s) | end (s) | load |`,
    `|---|---|---|---:|${PHASES.map(() => '---:').join('|')}|---:|---:|---:|`,
  ];
  for (const r of runs) {
    let before = 0;
    const cells = PHASES.map((p) => {
      const m = r.marks.find((x) => x.phase === p);
      if (!m) return '–';
      const took = m.atMs - before;
      before = m.atMs;
      return (took / 1000).toFixed(2);
    });
    lines.push(`| \`/${r.query}\` | ${r.browser} | ${r.backend} | ${r.startS.toFixed(1)} | ${cells.join(' | ')} | ${s(r.firstStepS)} | ${s(r.doneS)} | ${r.load ?? '–'} |`);
  }
  lines.push('');
  const groups = new Map<string, StartupTiming[]>();
  for (const r of runs) groups.set(`${r.query}\u0000${r.browser}`, [...(groups.get(`${r.query}\u0000${r.browser}`) ?? []), r]);
  for (const g of groups.values()) {
    const first = median(g.map((r) => r.firstStepS).filter((x): x is number => x !== null));
    const end = median(g.map((r) => r.doneS).filter((x): x is number => x !== null));
    lines.push(`- \`/${g[0].query}\` on ${g[0].browser}: median first RL step ${first === null ? 'not reached' : `${first.toFixed(1)} s`}, median end ${end === null ? 'not reached' : `${end.toFixed(1)} s`}, over ${g.length} run${g.length === 1 ? '' : 's'}.`);
  }
  lines.push('');
  return lines.join('\n');
}
