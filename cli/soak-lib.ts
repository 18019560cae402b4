/**
 * The long-run check behind `npm run soak` (docs/RELIABILITY.md, "Long runs"): one experiment for
 * many RL steps, sampling the tfjs tensor count and bytes and the process memory every `every`
 * steps, then a verdict on whether they stayed flat. Pure reading of the samples is here (tested);
 * cli/soak.ts runs it.
 */
export interface SoakSample {
  step: number;
  tensors: number;
  tensorBytes: number;
  /** Process memory in bytes (Node: rss; the browser: performance.memory when there is one). */
  memory: number | null;
}

export interface SoakVerdict {
  tensorsFlat: boolean;
  /** Growth of process memory from the second to the last quarter's median, in bytes per 1,000 steps. */
  memoryGrowthPer1000: number | null;
  memoryFlat: boolean | null;
  lines: string[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

/**
 * Tensors are flat when every sample after the first holds exactly the first's count (a leak of
 * one tensor a step shows at once). Memory is noisier (allocator, GC, JIT): flat when the median of
 * the last quarter exceeds the second quarter's (the first is warm-up) by less than
 * `memoryTolerance` bytes per 1,000 steps.
 */
export function readSoak(samples: SoakSample[], memoryTolerance = 32 * 1024 * 1024): SoakVerdict {
  if (samples.length < 8) throw new Error('soak: at least 8 samples are needed');
  const [first] = samples;
  const tensorsFlat = samples.every((s) => s.tensors === first.tensors && s.tensorBytes === first.tensorBytes);
  const q = Math.max(1, Math.floor(samples.length / 4));
  const mem = samples.map((s) => s.memory);
  let memoryGrowthPer1000: number | null = null;
  let memoryFlat: boolean | null = null;
  if (mem.every((m): m is number => m !== null)) {
    // The first quarter is warm-up (the wasm heap and V8's JIT settle): growth is read from the
    // second quarter to the last.
    const head = samples.slice(q, 2 * q);
    const tail = samples.slice(-q);
    const steps = median(tail.map((s) => s.step)) - median(head.map((s) => s.step));
    memoryGrowthPer1000 = steps > 0 ? ((median(tail.map((s) => s.memory!)) - median(head.map((s) => s.memory!))) * 1000) / steps : 0;
    memoryFlat = memoryGrowthPer1000 < memoryTolerance;
  }
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const last = samples[samples.length - 1];
  const lines = [
    `tensors: ${first.tensors} at step ${first.step}, ${last.tensors} at step ${last.step} (${tensorsFlat ? 'flat' : 'NOT flat'}); tensor bytes ${mb(first.tensorBytes)} -> ${mb(last.tensorBytes)}`,
    memoryGrowthPer1000 === null
      ? 'process memory: not measured here'
      : `process memory: ${mb(first.memory!)} -> ${mb(last.memory!)}; median growth ${mb(memoryGrowthPer1000)} per 1,000 steps (${memoryFlat ? 'flat' : 'NOT flat'}: tolerance ${mb(memoryTolerance)})`,
  ];
  return { tensorsFlat, memoryGrowthPer1000, memoryFlat, lines };
}
