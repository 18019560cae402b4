/**
 * What `npm run science` measured for each claim of a preset over 8 seeds (docs/RESULTS.md,
 * "Verdicts, as npm run science prints them"), for the sentence next to what this seed showed
 * (ClaimSentences.tsx). Quoted, never computed here; measuredClaims.test.ts checks every figure
 * against docs/RESULTS.md, so a retuned preset cannot leave a stale one behind.
 */
import type { SeedClaimId } from '../../core/experiment/claims';

export interface MeasuredClaim {
  verdict: 'SHOWN' | 'NOT SHOWN' | 'CONTRADICTED';
  /** Mean of the per-seed differences. */
  mean: number;
  wins: number;
  ties: number;
  losses: number;
}

export const MEASURED_SEEDS = 8;

export const MEASURED_CLAIMS: Readonly<Record<string, Partial<Record<SeedClaimId, MeasuredClaim>>>> = {
  collapse: {
    a: { verdict: 'SHOWN', mean: 0.17, wins: 8, ties: 0, losses: 0 },
    b: { verdict: 'SHOWN', mean: 0.16, wins: 6, ties: 2, losses: 0 },
    learns: { verdict: 'NOT SHOWN', mean: -0.01, wins: 4, ties: 0, losses: 4 },
    oracle: { verdict: 'SHOWN', mean: 0.15, wins: 8, ties: 0, losses: 0 },
  },
  'peers-teach': {
    a: { verdict: 'SHOWN', mean: 0.06, wins: 8, ties: 0, losses: 0 },
    b: { verdict: 'SHOWN', mean: 0.11, wins: 7, ties: 1, losses: 0 },
    learns: { verdict: 'SHOWN', mean: 0.05, wins: 6, ties: 0, losses: 2 },
    oracle: { verdict: 'SHOWN', mean: 0.1, wins: 7, ties: 1, losses: 0 },
  },
  length: {
    a: { verdict: 'CONTRADICTED', mean: -0.15, wins: 1, ties: 0, losses: 7 },
    b: { verdict: 'SHOWN', mean: 0.08, wins: 8, ties: 0, losses: 0 },
    learns: { verdict: 'SHOWN', mean: 0.23, wins: 8, ties: 0, losses: 0 },
    oracle: { verdict: 'SHOWN', mean: 0.12, wins: 8, ties: 0, losses: 0 },
  },
};
