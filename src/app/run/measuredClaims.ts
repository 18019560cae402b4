/**
 * What `npm run science` measured for each claim of a preset over 8 seeds (docs/RESULTS.md,
 * "Verdicts, as npm run science prints them"), for the sentence next to what this seed showed
 * (ClaimSentences.tsx). Quoted, never computed here; measuredClaims.test.ts checks every figure
 * against docs/RESULTS.md, so a retuned preset cannot leave a stale one behind.
 *
 * A preset whose confirmation block has run is quoted from it (seeds no one tuned on: the
 * verdict that counts); the others from the tuning block, seeds 1-8, and the sentence says which.
 */
import type { SeedClaimId } from '../../core/experiment/claims';

type Verdict = 'SHOWN' | 'NOT SHOWN' | 'CONTRADICTED';

export interface MeasuredClaim {
  /** The claim read on its own (its 95% interval). */
  verdict: Verdict;
  /** Read with the preset's other claims (Holm-Bonferroni): the headline when the block is the confirmation block. */
  holm: Verdict;
  /** Mean of the per-seed differences. */
  mean: number;
  wins: number;
  ties: number;
  losses: number;
}

export const MEASURED_SEEDS = 8;

export interface MeasuredBlock {
  /** Tuning: seeds 1-8, some of which chose the settings; confirmation: seeds run after they were frozen. */
  block: 'tuning' | 'confirmation';
  seeds: readonly number[];
  claims: Partial<Record<SeedClaimId, MeasuredClaim>>;
}

const CONFIRMATION = [101, 102, 103, 104, 105, 106, 107, 108] as const;

export const MEASURED_CLAIMS: Readonly<Record<string, MeasuredBlock>> = {
  'peers-learn': {
    block: 'confirmation',
    seeds: [109, 110, 111, 112, 113, 114, 115, 116],
    claims: {
      a: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.15, wins: 6, ties: 0, losses: 2 },
      b: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.31, wins: 8, ties: 0, losses: 0 },
      learns: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.16, wins: 8, ties: 0, losses: 0 },
      oracle: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.15, wins: 8, ties: 0, losses: 0 },
    },
  },
  collapse: {
    block: 'confirmation',
    seeds: CONFIRMATION,
    claims: {
      a: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.15, wins: 8, ties: 0, losses: 0 },
      b: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.13, wins: 8, ties: 0, losses: 0 },
      learns: { verdict: 'NOT SHOWN', holm: 'NOT SHOWN', mean: -0.02, wins: 2, ties: 0, losses: 6 },
      oracle: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.16, wins: 8, ties: 0, losses: 0 },
    },
  },
  'peers-teach': {
    block: 'confirmation',
    seeds: CONFIRMATION,
    claims: {
      a: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.07, wins: 8, ties: 0, losses: 0 },
      b: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.14, wins: 8, ties: 0, losses: 0 },
      learns: { verdict: 'SHOWN', holm: 'NOT SHOWN', mean: 0.07, wins: 6, ties: 0, losses: 2 },
      oracle: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.09, wins: 8, ties: 0, losses: 0 },
    },
  },
  length: {
    block: 'confirmation',
    seeds: CONFIRMATION,
    claims: {
      a: { verdict: 'CONTRADICTED', holm: 'CONTRADICTED', mean: -0.18, wins: 0, ties: 0, losses: 8 },
      b: { verdict: 'SHOWN', holm: 'NOT SHOWN', mean: 0.06, wins: 7, ties: 0, losses: 1 },
      learns: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.24, wins: 8, ties: 0, losses: 0 },
      oracle: { verdict: 'SHOWN', holm: 'SHOWN', mean: 0.13, wins: 8, ties: 0, losses: 0 },
    },
  },
};

