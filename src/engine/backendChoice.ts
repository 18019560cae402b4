/**
 * Which tfjs backend to train on, decided by measurement: the pure part (no tfjs, no DOM), shared
 * by the worker (which measures, measureBackends.ts) and the page (which shows the figures and
 * remembers the choice in localStorage, since workers have none).
 *
 *   planBackend({ forced, key, remembered })  -> forced | remembered (reuse) | measure
 *   chooseMeasured(rows)                      -> the fastest backend that finished a timed step
 *   measurementText(m)                        -> "wasm: 180 ms/step; webgl: 900 ms/step; ... — chosen: wasm, fastest measured"
 *
 * A choice is remembered per device and cohort shape: `choiceKey` joins the browser's user agent,
 * the WebGPU adapter's facts, cross-origin isolation (wasm threads) and `cohortSignature(spec)`
 * (what a step costs: task and lengths, member shapes, arms, B, G, updates per batch; not seeds
 * or learning rates). Kept free of tfjs imports: the page bundle imports this file.
 */
import type { ExperimentSpec } from '../core/experiment/spec';
import type { BackendName } from './backend-common';

/** Backends measured, in this order (cpu is never measured: it is only the last resort). */
export const MEASURED_BACKENDS: readonly BackendName[] = ['wasm', 'webgl', 'webgpu'];

/**
 * Timed RL steps per backend stop once they have used this much (the first step, which compiles
 * shaders, is not timed). A step slower than the fastest backend so far is given up: it cannot win.
 */
export const MEASURE_BUDGET_MS = 2000;

/** A software WebGPU adapter must beat wasm by more than this fraction to be chosen. */
export const SOFTWARE_MARGIN = 0.1;

export type MeasureStatus = 'ok' | 'stopped' | 'failed' | 'untimed';

/** One backend's measurement. Plain data (posted by the worker, stored by the page). */
export interface MeasuredRow {
  backend: BackendName;
  /** Shown in parentheses: the WebGPU adapter ('swiftshader', 'nvidia'), wasm's threads. */
  detail: string | null;
  /** A software (CPU-emulated) WebGPU adapter such as SwiftShader. */
  software: boolean;
  /**
   * ok: timed; stopped: given up mid-step (too slow to win), or not timed because it cannot win;
   * failed: could not run; untimed: the only backend that is not a software emulation, chosen
   * without timing (nothing could beat it).
   */
  status: MeasureStatus;
  /** Median wall-clock milliseconds of the timed RL steps (status ok). */
  msPerStep: number | null;
  /** How many steps msPerStep is the median of. */
  timedSteps: number;
  /** status stopped in a timed step: it had run this long when it was given up (null: stopped earlier). */
  atLeastMs: number | null;
  /** Set-up plus the first (untimed, shader-compiling) step, in ms. */
  warmupMs: number | null;
  /** Why it failed or was stopped, in words. */
  note: string | null;
  /** Tensors the measurement run left behind (0 expected). */
  leakedTensors?: number;
  /** Everything this backend's measurement took, activation and clean-up included, in ms. */
  spentMs?: number;
}

/** A finished choice: what the page remembers and shows. */
export interface BackendChoiceRecord {
  key: string;
  chosen: BackendName;
  /** Why, in words ('fastest measured'). */
  reason: string;
  rows: MeasuredRow[];
  /** Date.now() when it was measured. */
  measuredAt: number;
}

/** The facts about a WebGPU adapter that identify it and tell software from hardware. */
export interface AdapterFacts {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** GPUAdapter.isFallbackAdapter (or GPUAdapterInfo.isFallbackAdapter in newer browsers). */
  isFallbackAdapter: boolean;
}

export interface DeviceFacts {
  userAgent: string;
  /** null: no WebGPU adapter (or no WebGPU at all). */
  adapter: AdapterFacts | null;
  /** crossOriginIsolated: whether wasm can use threads. */
  isolated: boolean;
}

const SOFTWARE_RE = /swiftshader|llvmpipe|lavapipe|softpipe|basic render driver/i;

/** SwiftShader and other CPU emulations: `architecture === 'swiftshader'` or a fallback adapter (docs/TFJS-AND-BROWSER.md). */
export function isSoftwareAdapter(a: Partial<AdapterFacts> | null | undefined): boolean {
  if (!a) return false;
  if (a.isFallbackAdapter === true) return true;
  return [a.architecture, a.vendor, a.device, a.description].some((s) => typeof s === 'string' && SOFTWARE_RE.test(s));
}

/** What a step costs, as a short readable string: same signature, same step (up to seeds). */
export function cohortSignature(spec: ExperimentSpec): string {
  const members = spec.members.map((m) => {
    const shape = `${m.family}${m.dModel}x${m.layers}`;
    if (m.family === 'transformer') return `${shape}h${m.heads}`;
    if (m.family === 'mlp') return `${shape}w${m.window}`;
    return shape;
  });
  const index = new Map(spec.members.map((m, i) => [m.id, i]));
  const arms = spec.arms.map((a) => `${a.scheme}:${a.members.map((id) => index.get(id) ?? '?').join('+')}${a.teacher ? `>${index.get(a.teacher) ?? '?'}` : ''}`);
  const g = spec.grpo;
  return [
    `${spec.task.id}/${spec.task.difficulty}/${spec.task.scratchpad}/L${g.maxNewTokens}`,
    members.join(','),
    arms.join(','),
    `B${g.promptsPerStep}G${g.groupSize}U${g.updatesPerBatch}`,
  ].join('|');
}

function adapterKey(a: AdapterFacts | null): string {
  if (!a) return 'none';
  return [a.vendor, a.architecture, a.device, a.description, a.isFallbackAdapter ? 'fallback' : ''].join('/');
}

/** The key a choice is remembered under: this browser, this adapter, this cohort shape. */
export function choiceKey(device: DeviceFacts, signature: string): string {
  return `ua=${device.userAgent}|gpu=${adapterKey(device.adapter)}|coi=${device.isolated ? 1 : 0}|cohort=${signature}`;
}

export type BackendPlan =
  | { kind: 'forced'; backend: BackendName }
  | { kind: 'remembered'; record: BackendChoiceRecord }
  | { kind: 'measure' };

/** ?backend= forces (no measurement); else a remembered choice with this exact key; else measure. */
export function planBackend(input: {
  forced?: BackendName | null;
  key: string;
  remembered: readonly BackendChoiceRecord[];
}): BackendPlan {
  if (input.forced) return { kind: 'forced', backend: input.forced };
  const record = input.remembered.find((r) => r.key === input.key);
  return record ? { kind: 'remembered', record } : { kind: 'measure' };
}

/**
 * The fastest backend that finished a timed step. Failed and stopped backends are never chosen,
 * and a software WebGPU adapter only wins over wasm when it is more than SOFTWARE_MARGIN faster
 * (it emulates the GPU on the same CPU cores wasm uses). null when nothing finished.
 */
export function chooseMeasured(rows: readonly MeasuredRow[]): { chosen: BackendName | null; reason: string } {
  const ok = rows.filter((r) => r.status === 'ok' && r.msPerStep != null && Number.isFinite(r.msPerStep));
  const untimed = rows.filter((r) => r.status === 'untimed');
  if (ok.length === 0 && untimed.length === 1) return { chosen: untimed[0].backend, reason: ONLY_REASON };
  if (ok.length === 0) return { chosen: null, reason: 'no backend finished a timed step' };
  const fastest = ok.reduce((a, b) => (b.msPerStep! < a.msPerStep! ? b : a));
  const wasm = ok.find((r) => r.backend === 'wasm');
  if (fastest.software && wasm && fastest !== wasm && wasm.msPerStep! <= fastest.msPerStep! * (1 + SOFTWARE_MARGIN)) {
    return { chosen: 'wasm', reason: `within ${Math.round(SOFTWARE_MARGIN * 100)}% of ${rowLabel(fastest)}, a CPU emulation: wasm preferred` };
  }
  return { chosen: fastest.backend, reason: 'fastest measured' };
}

/** Why an untimed backend was chosen (measureBackends: nothing could beat it). */
export const ONLY_REASON = 'the only backend here that is not a software emulation';

/** '180 ms', '2.9 s', '14 s'. */
export function fmtStepMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}

export function rowLabel(r: Pick<MeasuredRow, 'backend' | 'detail'>): string {
  return r.detail ? `${r.backend} (${r.detail})` : r.backend;
}

/** 'wasm: 180 ms/step', 'webgpu (swiftshader): over 4.8 s/step (stopped: slower than wasm)', ... */
export function rowText(r: MeasuredRow): string {
  const label = rowLabel(r);
  switch (r.status) {
    case 'ok':
      return `${label}: ${fmtStepMs(r.msPerStep ?? NaN)}/step`;
    case 'stopped':
      if (r.atLeastMs == null) return `${label}: stopped${r.note ? ` (${r.note})` : ''}`;
      return `${label}: over ${fmtStepMs(r.atLeastMs)}/step (stopped${r.note ? `: ${r.note}` : ''})`;
    case 'failed':
      return `${label}: unavailable${r.note ? ` (${r.note})` : ''}`;
    case 'untimed':
      return `${label}: not timed${r.note ? ` (${r.note})` : ''}`;
  }
}

export interface MeasurementSummary {
  status: 'measuring' | 'measured' | 'remembered';
  rows: readonly MeasuredRow[];
  /** While measuring: the backend being timed now. */
  current?: BackendName | null;
  chosen: BackendName | null;
  reason: string | null;
}

/** The run bar's line: every backend's figure, then the choice and why. */
export function measurementText(m: MeasurementSummary): string {
  const rows = m.rows.map(rowText).join('; ');
  if (m.status === 'measuring') {
    const now = m.current ? `timing one RL step on ${m.current}…` : 'choosing…';
    return `Measuring the backends: ${rows ? `${rows}; ` : ''}${now}`;
  }
  const choice = m.chosen ? `chosen: ${m.chosen}, ${m.reason ?? 'fastest measured'}` : `none chosen (${m.reason ?? 'no measurement'})`;
  const remembered = m.status === 'remembered' ? ' (remembered from an earlier measurement in this browser)' : '';
  return `${rows} — ${choice}${remembered}`;
}

// ---------------------------------------------------------------- remembered choices (untrusted)

const BACKENDS: readonly string[] = ['webgpu', 'webgl', 'wasm', 'cpu'];
const STATUSES: readonly string[] = ['ok', 'stopped', 'failed', 'untimed'];

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isNumOrNull = (x: unknown) => x === null || isNum(x);
const isStrOrNull = (x: unknown) => x === null || typeof x === 'string';

function isRow(x: unknown): x is MeasuredRow {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return (
    BACKENDS.includes(r.backend as string) &&
    STATUSES.includes(r.status as string) &&
    isStrOrNull(r.detail) &&
    typeof r.software === 'boolean' &&
    isNumOrNull(r.msPerStep) &&
    isNum(r.timedSteps) &&
    isNumOrNull(r.atLeastMs) &&
    isNumOrNull(r.warmupMs) &&
    isStrOrNull(r.note)
  );
}

export function isChoiceRecord(x: unknown): x is BackendChoiceRecord {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return (
    typeof r.key === 'string' &&
    r.key.length <= 2000 &&
    BACKENDS.includes(r.chosen as string) &&
    typeof r.reason === 'string' &&
    r.reason.length <= 500 &&
    Array.isArray(r.rows) &&
    r.rows.length <= 8 &&
    r.rows.every(isRow) &&
    isNum(r.measuredAt)
  );
}

/** Stored data (localStorage JSON, or a message) to valid records; anything malformed is dropped. */
export function readRemembered(raw: unknown): BackendChoiceRecord[] {
  return Array.isArray(raw) ? raw.filter(isChoiceRecord).slice(0, MAX_REMEMBERED) : [];
}

export const MAX_REMEMBERED = 12;

/** `list` with `record` first, replacing any record with the same key; at most MAX_REMEMBERED. */
export function withRemembered(list: readonly BackendChoiceRecord[], record: BackendChoiceRecord): BackendChoiceRecord[] {
  return [record, ...list.filter((r) => r.key !== record.key)].slice(0, MAX_REMEMBERED);
}
