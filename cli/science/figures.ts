/**
 * npm run figures -- RESULTS.json --out docs/figures/NAME.svg [--show reward,entropy] [--title TEXT]
 *
 * Draws a results file of `npm run experiment` / `npm run science` as one panel per arm: per member,
 * the held-out pass@1 (solid, mean over seeds; faint lines are the single seeds) and the label-free
 * reward (dashed, mean over seeds, 5-step moving average). `--show` adds other per-step metrics
 * (entropy dotted, topAnswerShare dash-dot, pseudoLabelAccuracy long dashes, length in tokens ÷ 10 fine dots). Written as SVG; with
 * `--out X.png` the SVG is also rendered to PNG in the system Chromium (via Playwright, no new
 * dependency). `--ensemble` adds each arm's pair pooled by maj@G (the compute-matched control).
 * `--rank` lines members up by base pass@1 within each seed (stronger / weaker)
 * instead of by id. Bad arguments: a one-line message and exit code 2.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, UsageError, runMain } from '../common/args';
import { figureSvg, STYLE, type Metric } from './science-figure';
import { readResultFile } from '../common/result-file';

const FLAGS = { out: 'string', show: 'string', title: 'string', rank: 'boolean', ensemble: 'boolean', help: 'boolean' } as const;
const USAGE = 'usage: npm run figures -- RESULTS.json --out FIGURE.svg|FIGURE.png [--show reward,entropy,topAnswerShare,pseudoLabelAccuracy,length] [--title TEXT] [--rank] [--ensemble]';

async function toPng(svgPath: string, pngPath: string): Promise<void> {
  const { findChromium } = (await import('../../scripts/find-chromium.mjs')) as { findChromium: () => string | null };
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found to render the PNG (write .svg instead, or set CHROMIUM_PATH)');
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const svg = readFileSync(svgPath, 'utf8');
    const w = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 800);
    const h = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 400);
    const page = await browser.newPage({ viewport: { width: w, height: h }, deviceScaleFactor: 2 });
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    await page.screenshot({ path: pngPath, clip: { x: 0, y: 0, width: w, height: h } });
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const input = argv[0] && !argv[0].startsWith('--') ? argv.shift()! : undefined;
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  if (!input) throw new UsageError('give the results file first');
  const out = args.flags.get('out') as string | undefined;
  if (!out || !/\.(svg|png)$/.test(out)) throw new UsageError('--out must name a .svg or .png file');
  const show = ((args.flags.get('show') as string | undefined) ?? 'reward').split(',').filter(Boolean);
  for (const k of show) if (!(k in STYLE)) throw new UsageError(`--show: unknown metric "${k}" (known: ${Object.keys(STYLE).join(', ')})`);
  const read = readResultFile(input);
  if (!read.ok) throw new UsageError(read.error);
  const file = read.file;
  const svg = figureSvg(file, show as Metric[], args.flags.get('title') as string | undefined, args.flags.has('rank'), args.flags.has('ensemble'));
  mkdirSync(dirname(resolve(out)), { recursive: true });
  const svgPath = out.replace(/\.png$/, '.svg');
  writeFileSync(svgPath, svg);
  console.error(`wrote ${svgPath}`);
  if (out.endsWith('.png')) {
    await toPng(svgPath, out);
    console.error(`wrote ${out}`);
  }
}

runMain(main, 'figures');
