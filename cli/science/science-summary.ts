/**
 * The summary of every verdict: one row per claim of the science plan, its verdict on
 * the tuning seeds and on the confirmation seeds, each per claim and Holm-adjusted within its
 * preset's family, and the headline: the confirmation block's Holm verdict, given only when the
 * confirmation block has all its seeds. `npm run science -- --summary --from DIR` prints it and
 * docs/RESULTS.md quotes it (block `summary`). Pure strings.
 */
import type { ClaimResult } from './science-claims';
import { holmVerdicts, type HolmVerdict } from './science-paired';
import { CONFIRMATION_SEEDS, seedRange } from './science-plan';

/** One preset's claims read on one block of seeds: the family Holm adjusts over. */
export interface Family {
  preset: string;
  seeds: number[];
  results: ClaimResult[];
}

/** A plan entry's families on its two blocks (null: that block's results are not there). */
export interface SummaryEntry {
  id: string;
  tuning: Family[] | null;
  confirmation: Family[] | null;
  /** The seeds its confirmation block plans (default 8). */
  planned?: number;
}

const signed = (x: number) => (Number.isFinite(x) ? `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '-');

/** "+0.17 [+0.09, +0.25] SHOWN; Holm SHOWN (seeds 1-8)". */
function cell(r: ClaimResult, h: HolmVerdict, seeds: number[]): string {
  const s = r.stats;
  return `${signed(s.mean)} [${signed(s.lo)}, ${signed(s.hi)}] ${r.verdict.toUpperCase()}; Holm ${h.verdict.toUpperCase()} (seeds ${seedRange(seeds)})`;
}

/** Per preset and claim id: the claim, its Holm verdict and the seeds it was read on. */
function index(families: Family[] | null): Map<string, { r: ClaimResult; h: HolmVerdict; seeds: number[] }> {
  const out = new Map<string, { r: ClaimResult; h: HolmVerdict; seeds: number[] }>();
  for (const f of families ?? []) {
    const h = holmVerdicts(f.results.map((r) => r.stats));
    f.results.forEach((r, i) => out.set(`${f.preset}\u0000${r.id}`, { r, h: h[i], seeds: f.seeds }));
  }
  return out;
}

/** The headline: the confirmation block's Holm verdict, once all its seeds are in. */
export function headline(confirmation: { h: HolmVerdict; seeds: number[] } | undefined, planned = CONFIRMATION_SEEDS.length): string {
  if (!confirmation) return 'not confirmed (confirmation seeds not run)';
  if (confirmation.seeds.length < planned) return `not confirmed (${confirmation.seeds.length} of ${planned} confirmation seeds run)`;
  return `**${confirmation.h.verdict.toUpperCase()}**`;
}

/** The markdown table: one row per claim of every entry, in the plan's order. */
export function summaryTable(entries: readonly SummaryEntry[]): string {
  const rows = [
    '| claim | preset | tuning seeds: mean [95% CI], verdict; Holm | confirmation seeds: mean [95% CI], verdict; Holm | headline |',
    '|---|---|---|---|---|',
  ];
  for (const e of entries) {
    const tuning = index(e.tuning);
    const confirmation = index(e.confirmation);
    const keys = [...new Set([...tuning.keys(), ...confirmation.keys()])];
    for (const key of keys) {
      const [preset] = key.split('\u0000');
      const t = tuning.get(key);
      const c = confirmation.get(key);
      const r = (t ?? c)!.r;
      const title = r.title.split(':')[0];
      rows.push(`| (${r.id}) ${title} | ${preset} | ${t ? cell(t.r, t.h, t.seeds) : 'not run'} | ${c ? cell(c.r, c.h, c.seeds) : 'not run'} | ${headline(c, e.planned)} |`);
    }
  }
  return rows.join('\n');
}
