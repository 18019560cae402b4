/**
 * The long-run check behind `npm run soak` (docs/RELIABILITY.md, "Long runs"): one experiment for
 * many RL steps, sampling the tfjs tensor count and bytes and the process memory every `every`
 * steps, then a verdict on whether they stayed flat. Pure reading of the samples is here (tested);
 * cli/bench/soak.ts runs it.
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

/**
 * A buffer pool (tfjs-webgpu's buffer manager keeps freed GPU buffers to reuse them) holds the
 * buffers of the largest pass it has run, so it grows once, by design, at the first held-out
 * evaluation (larger batches than an RL step: +25.6 MB for quick on SwiftShader). It is judged by
 * readMemory from the sample at or after `firstEvalStep` on; with fewer than 4 samples there, not
 * at all (null). The first line gives the whole run's figures.
 */
export function readPool(samples: { step: number; memory: number | null }[], firstEvalStep: number, tolerance = 32 * 1024 * 1024, label = 'GPU buffers'): MemoryVerdict & { lines: string[] } {
  const known = samples.filter((s): s is { step: number; memory: number } => s.memory !== null);
  if (known.length !== samples.length || known.length === 0) return { growthPer1000: null, flat: null, line: `${label}: not measured here`, lines: [`${label}: not measured here`] };
  const first = known[0];
  const last = known[known.length - 1];
  const whole = `${label}: ${mb(first.memory)} at step ${first.step} -> ${mb(last.memory)} at step ${last.step}`;
  const after = known.filter((s) => s.step >= firstEvalStep);
  const from = `${label} from step ${firstEvalStep} (the first held-out evaluation) on`;
  if (after.length < 4) {
    const line = `${from}: not judged (${after.length} samples there, 4 needed)`;
    return { growthPer1000: null, flat: null, line, lines: [whole, line] };
  }
  const v = readMemory(after, tolerance, from);
  return { ...v, lines: [whole, v.line] };
}
