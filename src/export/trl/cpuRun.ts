/**
 * What `npm run trl-check` ran and found, as the exported README states it (readme.ts). Written by
 * `npx tsx cli/trl/trl-check-docs.ts --write` from bench/results/trl-check-8.json and trl-check.json;
 * cli/trl/trl-check-docs.test.ts fails when it and the files differ.
 */
import type { TrlCpuRun } from './cpuRunType';

export const TRL_CPU_RUN: TrlCpuRun = {
  "date": "2026-12-04",
  "machine": "2-core Linux x86_64 machine without a GPU",
  "python": "3.11.7",
  "versions": "trl 0.26.2, transformers 4.57.1, accelerate 1.13.0, datasets 4.8.4, torch 2.9.0, tokenizers 0.22.2",
  "seeds": "109-116",
  "steps": 120,
  "arms": [
    {
      "arm": "oracle",
      "start": "0.51",
      "end": "0.68"
    },
    {
      "arm": "self",
      "start": "0.51",
      "end": "0.29"
    },
    {
      "arm": "peer",
      "start": "0.51",
      "end": "0.50"
    }
  ],
  "claims": [
    {
      "id": "(a)",
      "text": "self-reward collapses: the self arm's held-out pass@1 falls (self start − self end)",
      "mean": "+0.22",
      "verdict": "SHOWN",
      "holm": "SHOWN"
    },
    {
      "id": "(b)",
      "text": "peer reward beats self-reward (peer end − self end)",
      "mean": "+0.21",
      "verdict": "SHOWN",
      "holm": "SHOWN"
    },
    {
      "id": "(learns)",
      "text": "peer reward teaches: the peer arm ends above its start (peer end − peer start)",
      "mean": "−0.01",
      "verdict": "NOT SHOWN",
      "holm": "NOT SHOWN"
    },
    {
      "id": "(oracle)",
      "text": "the true labels stay ahead (oracle end − peer end)",
      "mean": "+0.18",
      "verdict": "SHOWN",
      "holm": "SHOWN"
    },
    {
      "id": "(truth)",
      "text": "GRPO learns from true labels (oracle end − oracle start)",
      "mean": "+0.17",
      "verdict": "SHOWN",
      "holm": "SHOWN"
    }
  ],
  "secondsPerStep": "0.41",
  "parameters": 26560,
  "wholeRunSeeds": 3,
  "wholeRunMinutes": "22.5",
  "installMinutes": "4.1",
  "installGiB": "7.1"
};
