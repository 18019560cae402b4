/**
 * The pieces of `npm run warmstarts` worth testing on their own: which warm starts the presets
 * need (`warmStartPlan`), whether public/warmstarts holds exactly those, up to date
 * (`checkWarmStarts`, what --check prints), and making the missing or stale ones.
 *
 * One file per distinct key: preset members with equal key fields (collapse's A is also
 * ensemble-control's, intrinsic's and diversity's A and T) share one file.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWarmMember } from '../../src/core/experiment/overlapDial';
import { missedTarget, missPolicy, WarmStartMissError } from '../../src/core/experiment/warmStartCohort';
import { PRESETS, type Preset } from '../../src/core/experiment/presets';
import { ROOM_SEEDS, type RoomSeedList } from '../../src/core/experiment/roomSeeds';
import { levelOfPair, levelPair, peerLevels } from '../../src/room/levels';
import type { ExperimentSpec, MemberSpec } from '../../src/core/experiment/spec';
import {
  SHIPPED_BACKEND,
  WARM_START_FORMAT_VERSION,
  WARM_START_INDEX_FILE,
  WARM_START_INDEX_FORMAT,
  keyOfFields,
  parseWarmStartIndex,
  serializeWarmStartIndex,
  warmStartFileOf,
  warmStartFileProblem,
  warmStartInputs,
  warmStartKeyFields,
  type WarmStartFile,
  type WarmStartIndex,
  type WarmStartKeyFields,
} from '../../src/core/experiment/warmStartCache';
import { readWarmStartFile, warmStartFileName, writeWarmStartFile } from '../../src/engine/warmStartNode';

export interface PlannedWarmStart {
  key: string;
  fields: WarmStartKeyFields;
  /** The first preset and member that need it (what the script trains). */
  spec: ExperimentSpec;
  member: MemberSpec;
  /** Every "preset/member" it serves ("preset/member (retry k)" for a retry). */
  users: string[];
  /** 0 (or absent): the member's own init seed; k: its k-th retry, initSeed + k (warmStart.onMiss 'retry'). */
  retry?: number;
}

/** The warm starts the presets need, one per distinct key, in preset order. */
export function warmStartPlan(presets: Record<string, Preset> = PRESETS, backend = SHIPPED_BACKEND): PlannedWarmStart[] {
  const byKey = new Map<string, PlannedWarmStart>();
  for (const [id, preset] of Object.entries(presets)) {
    const { maxLen } = warmStartInputs(preset.spec);
    for (const member of preset.spec.members) {
      const fields = warmStartKeyFields(preset.spec, member, maxLen, backend);
      const key = keyOfFields(fields);
      const entry = byKey.get(key);
      if (entry) entry.users.push(`${id}/${member.id}`);
      else byKey.set(key, { key, fields, spec: preset.spec, member, users: [`${id}/${member.id}`] });
    }
  }
  return [...byKey.values()];
}

/**
 * The warm starts of the rooms' seed lists (src/core/experiment/roomSeeds.ts): every member of
 * each listed preset, with each listed seed (a list shipped per partner level: the two members of
 * the level its position serves, as src/room/levels.ts hands levels to pairs), one per distinct
 * key, leaving out the keys `shipped` already holds (a list may include the preset's own seed).
 * Labelled "preset/member seed N".
 */
export function roomWarmStartPlan(
  shipped: readonly PlannedWarmStart[] = warmStartPlan(),
  lists: Readonly<Record<string, RoomSeedList>> = ROOM_SEEDS,
  presets: Record<string, Preset> = PRESETS,
  backend = SHIPPED_BACKEND,
): PlannedWarmStart[] {
  const have = new Set(shipped.map((e) => e.key));
  const byKey = new Map<string, PlannedWarmStart>();
  for (const [id, list] of Object.entries(lists)) {
    const preset = presets[id];
    if (!preset) throw new Error(`room seeds for "${id}", which is no preset`);
    const levels = peerLevels(preset.spec);
    if (list.levels !== undefined && levels.length !== list.levels) throw new Error(`the room seeds of "${id}" are shipped for ${list.levels} partner levels; its rooms hand out ${levels.length}`);
    for (const [p, seed] of list.seeds.entries()) {
      const spec = { ...preset.spec, seed };
      const { maxLen } = warmStartInputs(spec);
      const pair = list.levels === undefined ? null : levelPair(spec, levelOfPair(levels, p)!);
      for (const member of spec.members.filter((m) => !pair || m.id === pair.anchor || m.id === pair.partner)) {
        const fields = warmStartKeyFields(spec, member, maxLen, backend);
        const key = keyOfFields(fields);
        if (have.has(key)) continue;
        const user = `${id}/${member.id} seed ${seed}`;
        const entry = byKey.get(key);
        if (entry) entry.users.push(user);
        else byKey.set(key, { key, fields, spec, member, users: [user] });
      }
    }
  }
  return [...byKey.values()];
}

/**
 * The next retry of a planned warm start that misses its target (docs/WARMSTARTS.md, "The
 * guard"): the member with the next init seed, as a run of the preset's spec would try it; null
 * when the spec does not retry or has no retry left (then a miss stops the run).
 */
export function nextRetry(entry: PlannedWarmStart, backend = SHIPPED_BACKEND): PlannedWarmStart | null {
  const k = entry.retry ?? 0;
  const { onMiss, retries } = missPolicy(entry.spec);
  if (onMiss !== 'retry' || k >= retries || entry.member.warmStartTarget <= 0) return null;
  const member = { ...entry.member, initSeed: entry.member.initSeed + 1 };
  const fields = warmStartKeyFields(entry.spec, member, entry.fields.maxLen, backend);
  const users = entry.users.map((u) => `${u.replace(/ \(retry \d+\)$/, '')} (retry ${k + 1})`);
  return { key: keyOfFields(fields), fields, spec: entry.spec, member, users, retry: k + 1 };
}

/** The stored file of `entry` in `dir` when it is usable and records a miss that the spec retries. */
function retryAfter(dir: string, entry: PlannedWarmStart): PlannedWarmStart | null {
  const next = nextRetry(entry);
  if (!next || fileProblem(dir, entry) !== null) return null;
  return readWarmStartFile(join(dir, warmStartFileName(entry.key))).reachedTarget === false ? next : null;
}

/**
 * `plan` and the retries its stored misses need: a preset with warmStart.onMiss 'retry' whose
 * member misses with its own init seed ships that miss (a run loads it, sees the miss and
 * retries) and the warm start of the next seed, up to the one that reaches the target.
 */
export function withRetries(dir: string, plan: PlannedWarmStart[]): PlannedWarmStart[] {
  const out = [...plan];
  const keys = new Set(out.map((e) => e.key));
  for (let i = 0; i < out.length; i++) {
    const next = retryAfter(dir, out[i]);
    if (next && !keys.has(next.key)) {
      keys.add(next.key);
      out.push(next);
    }
  }
  return out;
}

/** Why the file for `entry` in `dir` is not usable (missing, invalid, stale), or null. */
export function fileProblem(dir: string, entry: PlannedWarmStart): string | null {
  const path = join(dir, warmStartFileName(entry.key));
  if (!existsSync(path)) return 'missing';
  let file: WarmStartFile;
  try {
    file = readWarmStartFile(path);
  } catch (e) {
    return `invalid: ${(e as Error).message}`;
  }
  const problem = warmStartFileProblem(file, entry.fields);
  if (problem) return problem;
  if (file.origin !== 'shipped') return `it is a cached warm start, not a shipped one`;
  // The guard (docs/WARMSTARTS.md): a preset never ships a member that missed its target, except
  // a miss its spec retries (the retry's file is then planned too: withRetries).
  if (file.reachedTarget === false && !nextRetry(entry)) return `it missed its warm-start target ${entry.member.warmStartTarget} (best ${file.bestValidation ?? '?'})`;
  return null;
}

export interface CheckResult {
  ok: boolean;
  /** One line per problem: "<file>: <what is wrong> (<users>)". */
  problems: string[];
}

/**
 * Does `dir` hold exactly the warm starts `plan` needs, each valid and up to date, and an index
 * listing exactly them? Reads and validates every file (no tfjs).
 */
export function checkWarmStarts(dir: string, planned: PlannedWarmStart[] = warmStartPlan()): CheckResult {
  const plan = withRetries(dir, planned);
  const problems: string[] = [];
  for (const entry of plan) {
    const problem = fileProblem(dir, entry);
    if (problem) problems.push(`${warmStartFileName(entry.key)}: ${problem} (${entry.users.join(', ')})`);
  }
  const wanted = new Set(plan.map((e) => warmStartFileName(e.key)));
  const indexPath = join(dir, WARM_START_INDEX_FILE);
  if (!existsSync(indexPath)) problems.push(`${WARM_START_INDEX_FILE}: missing`);
  else {
    try {
      const index = parseWarmStartIndex(readFileSync(indexPath, 'utf8'));
      const listed = new Set(index.files.map((f) => f.file));
      for (const f of wanted) if (!listed.has(f)) problems.push(`${WARM_START_INDEX_FILE}: does not list ${f}`);
      for (const f of index.files) {
        if (!wanted.has(f.file)) problems.push(`${WARM_START_INDEX_FILE}: lists ${f.file}, which no preset needs`);
        else if (existsSync(join(dir, f.file)) && statSync(join(dir, f.file)).size !== f.bytes) {
          problems.push(`${WARM_START_INDEX_FILE}: gives ${f.file} a size of ${f.bytes} bytes, it has ${statSync(join(dir, f.file)).size}`);
        }
      }
    } catch (e) {
      problems.push(`${WARM_START_INDEX_FILE}: ${(e as Error).message}`);
    }
  }
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) {
      if (name !== WARM_START_INDEX_FILE && !wanted.has(name) && !statSync(join(dir, name)).isDirectory()) problems.push(`${name}: stale, no preset needs it`);
    }
  }
  return { ok: problems.length === 0, problems };
}

/** A planned member missed its warm-start target and its spec does not retry: nothing to ship. */
export class PlannedMissError extends Error {}

/**
 * Train the warm start of `entry` on the current tfjs backend (wasm for shipped files). A member
 * that misses its target is not shipped: the error names it, as the run would (fix the preset).
 */
export async function trainWarmStart(
  entry: PlannedWarmStart,
  onProgress?: (step: number, steps: number) => void,
): Promise<WarmStartFile> {
  const inputs = warmStartInputs(entry.spec);
  if (inputs.maxLen !== entry.fields.maxLen) throw new Error(`maxLen ${inputs.maxLen} is not the planned ${entry.fields.maxLen}`);
  const warm = await buildWarmMember(inputs, entry.member, (s, n) => onProgress?.(s, n));
  try {
    const m = entry.member;
    if (missedTarget(m, warm.info) && !nextRetry(entry)) {
      const best = warm.info.warmStartBest ?? null;
      const miss = new WarmStartMissError({ memberId: m.id, target: m.warmStartTarget, steps: m.warmStartSteps, best, initSeeds: [m.initSeed], onMiss: 'stop' });
      throw new PlannedMissError(`${entry.users.join(', ')}: ${miss.message}`);
    }
    return await warmStartFileOf(warm, entry.fields, 'shipped');
  } finally {
    warm.reference.dispose();
  }
}

export interface BuildOptions {
  /** Only the warm starts of this preset (the others are kept as they are). */
  preset?: string;
  /** Remake even the files that are up to date. */
  force?: boolean;
  log?: (line: string) => void;
  onProgress?: (label: string, step: number, steps: number) => void;
  /**
   * Where a member that misses its target goes (a room seed's member: that seed cannot be
   * listed): told, and the build goes on. Without it a miss stops the build (fix the preset).
   */
  onMiss?: (entry: PlannedWarmStart, message: string) => void;
}

export interface BuildResult {
  made: string[];
  kept: string[];
  removed: string[];
  /** Members that missed their target (only with opts.onMiss): "file: message". */
  missed: string[];
  seconds: number;
}

/** Make the missing and stale files of `plan` in `dir`, remove the unneeded ones, write the index. */
export async function buildWarmStarts(dir: string, plan: PlannedWarmStart[] = warmStartPlan(), opts: BuildOptions = {}): Promise<BuildResult> {
  const t0 = Date.now();
  const log = opts.log ?? (() => {});
  const made: string[] = [];
  const kept: string[] = [];
  const removed: string[] = [];
  const misses: string[] = [];
  const selected = opts.preset ? plan.filter((e) => e.users.some((u) => u.startsWith(`${opts.preset}/`))) : plan;
  // Grows: a miss that its spec retries brings the retry's warm start (withRetries).
  const queue = [...selected];
  const all = [...plan];
  const enqueue = (entry: PlannedWarmStart) => {
    const next = retryAfter(dir, entry);
    if (next && !all.some((e) => e.key === next.key)) {
      queue.push(next);
      all.push(next);
    }
  };
  for (const entry of queue) {
    const name = warmStartFileName(entry.key);
    const problem = opts.force ? '--force' : fileProblem(dir, entry);
    if (!problem) {
      kept.push(name);
      enqueue(entry);
      continue;
    }
    const t = Date.now();
    let file: WarmStartFile;
    try {
      file = await trainWarmStart(entry, (s, n) => opts.onProgress?.(entry.users[0], s, n));
    } catch (e) {
      if (!(e instanceof PlannedMissError) || !opts.onMiss) throw e;
      misses.push(`${name}: ${e.message}`);
      opts.onMiss(entry, e.message);
      continue;
    }
    writeWarmStartFile(dir, file);
    made.push(name);
    const missed = file.reachedTarget === false ? ', missed its target: retried with the next init seed' : '';
    log(`${name}: ${problem === 'missing' ? 'made' : `remade (${problem})`} for ${entry.users.join(', ')}: ${file.warmStartSteps} steps in ${((Date.now() - t) / 1000).toFixed(1)} s${missed}`);
    enqueue(entry);
  }
  // Files no preset needs any more: removed (only when making the whole folder).
  const wanted = new Set(withRetries(dir, all).map((e) => warmStartFileName(e.key)));
  if (!opts.preset && existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      if (name !== WARM_START_INDEX_FILE && !wanted.has(name) && !statSync(join(dir, name)).isDirectory()) {
        rmSync(join(dir, name));
        removed.push(name);
        log(`${name}: removed (no preset needs it)`);
      }
    }
  }
  writeIndex(dir, withRetries(dir, all));
  return { made, kept, removed, missed: misses, seconds: (Date.now() - t0) / 1000 };
}

/** index.json: the planned files that are present and up to date. */
export function writeIndex(dir: string, plan: PlannedWarmStart[]): WarmStartIndex {
  const index: WarmStartIndex = {
    format: WARM_START_INDEX_FORMAT,
    version: WARM_START_FORMAT_VERSION,
    files: plan
      .filter((e) => fileProblem(dir, e) === null)
      .map((e) => {
        const file = warmStartFileName(e.key);
        return { key: e.key, file, bytes: statSync(join(dir, file)).size, members: e.users };
      }),
  };
  writeFileSync(join(dir, WARM_START_INDEX_FILE), serializeWarmStartIndex(index));
  return index;
}

/**
 * Retrain every planned warm start and compare with the stored file bit for bit: finds a change
 * of the model arithmetic that WARM_START_ENGINE_VERSION was not bumped for.
 */
export async function verifyWarmStarts(dir: string, planned: PlannedWarmStart[] = warmStartPlan(), log: (line: string) => void = () => {}): Promise<string[]> {
  const plan = withRetries(dir, planned);
  const problems: string[] = [];
  for (const entry of plan) {
    const name = warmStartFileName(entry.key);
    const problem = fileProblem(dir, entry);
    if (problem) {
      problems.push(`${name}: ${problem}`);
      continue;
    }
    const stored = readWarmStartFile(join(dir, name));
    const fresh = await trainWarmStart(entry);
    // A record the stored file has (files made before the guard have none) must be the same too.
    const sameRecord = (['reachedTarget', 'bestValidation', 'lastValidation'] as const).every((k) => stored[k] === undefined || Object.is(stored[k], fresh[k]));
    const same =
      sameRecord &&
      fresh.warmStartSteps === stored.warmStartSteps &&
      fresh.weights.length === stored.weights.length &&
      fresh.weights.every((w, i) => w.name === stored.weights[i].name && bitEqual(w.values, stored.weights[i].values));
    log(`${name}: ${same ? 'retrained: identical' : 'retrained: DIFFERENT'}`);
    if (!same) {
      problems.push(`${name}: retraining gives other weights (${fresh.warmStartSteps} steps, stored ${stored.warmStartSteps}): bump WARM_START_ENGINE_VERSION and run npm run warmstarts`);
    }
  }
  return problems;
}

function bitEqual(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Total bytes of the folder's files. */
export function folderBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}
