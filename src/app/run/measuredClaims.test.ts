import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEASURED_CLAIMS } from './measuredClaims';
import { PLAN, TUNING_SEEDS } from '../../../cli/science/science-plan';

const results = readFileSync(new URL('../../../docs/RESULTS.md', import.meta.url), 'utf8');

/** The 8-seed verdict line of a claim of a preset, as `npm run science` prints it in docs/RESULTS.md. */
function verdictLine(preset: string, claim: string, seeds: readonly number[]): string {
  const line = results.split('\n').find((l) => l.startsWith(`(${claim}) `) && l.includes(`[${preset}, seeds ${seeds.join(',')};`));
  if (!line) throw new Error(`no verdict on seeds ${seeds.join(',')} for (${claim}) of ${preset} in docs/RESULTS.md`);
  return line;
}

const signed = (v: number) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(2)}`;
const count = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}${word === 'loss' ? 'es' : 's'}`}`;

describe('the 8-seed results quoted next to each seed', () => {
  for (const [preset, { seeds, block, claims }] of Object.entries(MEASURED_CLAIMS)) {
    it(`${preset}: the ${block} block is the seeds the science plan names for it`, () => {
      expect(seeds).toEqual(block === 'tuning' ? TUNING_SEEDS : PLAN.find((e) => e.id.split('+').includes(preset))?.confirmation);
    });
    for (const [claim, m] of Object.entries(claims)) {
      it(`${preset} (${claim}) matches docs/RESULTS.md`, () => {
        const line = verdictLine(preset, claim, seeds);
        expect(line.startsWith(`(${claim}) ${m!.verdict}:`)).toBe(true);
        expect(line).toContain(`pass@1: ${signed(m!.mean)} [`);
        expect(line).toContain(`${count(m!.wins, 'win')}, ${count(m!.ties, 'tie')}, ${count(m!.losses, 'loss')} of 8 seeds`);
        const holm = results.split('\n').find((l) => l.startsWith(`(${claim}) HOLM `) && l.includes(`[${preset}, seeds ${seeds.join(',')};`));
        expect(holm?.startsWith(`(${claim}) HOLM ${m!.holm} [`)).toBe(true);
      });
    }
  }
});
