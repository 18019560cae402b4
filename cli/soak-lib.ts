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
  /** Memory in bytes (Node: the process's rss; Chromium: the page's JS heap after a forced GC). */
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

export interface MemoryVerdict {
  /** Growth from the second to the last quarter's median, in bytes per 1,000 steps; null when unmeasured. */
  growthPer1000: number | null;
  flat: boolean | null;
  line: string;
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

/**
 * Memory is noisy (allocator, GC, JIT): flat when the median of the last quarter of the samples
 * exceeds the second quarter's (the first is warm-up: the wasm heap, V8's JIT and tfjs-webgpu's
 * buffer pool settle) by less than `tolerance` bytes per 1,000 steps. `label` names the figure
 * ('process memory' on Node; in Chromium the JS heap and the GPU buffers).
 */
export function readMemory(samples: { step: number; memory: number | null }[], tolerance = 32 * 1024 * 1024, label = 'process memory'): MemoryVerdict {
  if (!samples.every((s): s is { step: number; memory: number } => s.memory !== null)) {
    return { growthPer1000: null, flat: null, line: `${label}: not measured here` };
  }
  const q = Math.max(1, Math.floor(samples.length / 4));
  const head = samples.slice(q, 2 * q);
  const tail = samples.slice(-q);
  const steps = median(tail.map((s) => s.step)) - median(head.map((s) => s.step));
  const growthPer1000 = steps > 0 ? ((median(tail.map((s) => s.memory!)) - median(head.map((s) => s.memory!))) * 1000) / steps : 0;
  const flat = growthPer1000 < tolerance;
  const first = samples[0].memory!;
  const last = samples[samples.length - 1].memory!;
  return {
    growthPer1000,
    flat,
    line: `${label}: ${mb(first)} -> ${mb(last)}; median growth ${mb(growthPer1000)} per 1,000 steps (${flat ? 'flat' : 'NOT flat'}: tolerance ${mb(tolerance)})`,
  };
}

/**
 * Tensors are flat when every sample after the first holds exactly the first's count (a leak of
 * one tensor a step shows at once). Memory: readMemory.
 */
export function readSoak(samples: SoakSample[], memoryTolerance = 32 * 1024 * 1024, memoryLabel = 'process memory'): SoakVerdict {
  if (samples.length < 8) throw new Error('soak: at least 8 samples are needed');
  const [first] = samples;
  const tensorsFlat = samples.every((s) => s.tensors === first.tensors && s.tensorBytes === first.tensorBytes);
  const memory = readMemory(samples, memoryTolerance, memoryLabel);
  const last = samples[samples.length - 1];
  const lines = [
    `tensors: ${first.tensors} at step ${first.step}, ${last.tensors} at step ${last.step} (${tensorsFlat ? 'flat' : 'NOT flat'}); tensor bytes ${mb(first.tensorBytes)} -> ${mb(last.tensorBytes)}`,
    memory.line,
  ];
  return { tensorsFlat, memoryGrowthPer1000: memory.growthPer1000, memoryFlat: memory.flat, lines };
}
