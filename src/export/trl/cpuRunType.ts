/** What `npm run trl-check` ran and found, in the words and figures the exported README gives (cpuRun.ts). */
export interface TrlCpuRun {
  date: string;
  /** "2-core Linux x86_64 machine without a GPU". */
  machine: string;
  python: string;
  /** "trl 0.26.2, transformers 4.57.1, ...". */
  versions: string;
  /** "109-116". */
  seeds: string;
  steps: number;
  /** Held-out pass@1, mean over the seeds (two decimals). */
  arms: { arm: string; start: string; end: string }[];
  /** The lab's claims: mean paired difference ("+0.21"), its verdict and its Holm verdict. */
  claims: { id: string; text: string; mean: string; verdict: string; holm: string }[];
  /** Seconds per RL step of one member's process, mean over members, arms and seeds. */
  secondsPerStep: string;
  /** Parameters of one tiny member. */
  parameters: number;
  /** The default `npm run trl-check`: its seeds, its time with its venv's install, in minutes. */
  wholeRunSeeds: number;
  wholeRunMinutes: string;
  installMinutes: string | null;
  installGiB: string | null;
}
