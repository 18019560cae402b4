/**
 * Stored warm starts: a member's warm-started weights as a versioned file, keyed by everything
 * that determines them, so a run can start from them instead of warm-starting again.
 *
 *   shipped  files made by `npm run warmstarts` for every preset member, served from
 *            public/warmstarts/ (made on Node's wasm backend);
 *   cached   warm starts a run trained itself, saved by the caller's cache (IndexedDB in the page).
 *
 * The key is a hash of the key fields (`warmStartKeyFields`): the experiment seed, the task, the
 * data sizes (the split depends on them), the warm-start batch size and learning rate, the
 * member's fields that the warm start reads, maxLen and the vocabulary, the backend that made the
 * weights and WARM_START_ENGINE_VERSION. Anything else (RL settings, arms, member ids and sample
 * seeds) does not change the weights and does not change the key. A file is used only when its
 * key and key fields equal the ones the run asks for; otherwise it is refused with a message and
 * the member trains as usual.
 *
 * On the backend that made a file, starting from it equals warm-starting (bit-identical weights;
 * warmStartCache.test.ts runs both). On another backend a shipped file is used as well (its
 * weights then define the run; the cohort summary says where they were made); a cached file
 * crosses no backend.
 *
 * Pure: no DOM, no Node. The file format and its decoder are in warmStartFile.ts; the file is
 * untrusted input (it is fetched): `decodeWarmStartFile`
 * checks its format, version, sizes, names, shapes, counts and that every value is finite.
 */
import type { Policy } from '../models/policy';
import { createPolicy, describePolicy } from '../models/index';
import { VOCAB } from '../tasks/tokenizer';
import { resolveTask, taskVocabulary } from '../tasks/index';
import { taskContentHash } from '../tasks/custom/index';
import { runVocabSize } from './lengths';
import {
  MAX_VALIDATION,
  measureTarget,
  memberWarmStart,
  policyConfigFor,
  type TargetRecord,
  type WarmMember,
  type WarmStartInputs,
  type WarmStartProgress,
} from './cohort';
import type { ExperimentSpec, MemberSpec } from './spec';
import { buildWarmMember } from './overlapDial';
import {
  decodeWarmStartFile,
  encodeWarmStartFile,
  keyOfFields,
  warmStartFileProblem,
  type WarmStartFile,
  type WarmStartFileJson,
  type WarmStartKeyFields,
} from './warmStartFile';

export * from './warmStartFile';

/**
 * The model arithmetic's version. Bump it whenever the numbers a warm start produces change
 * (a model family's forward pass, initialisation, the warm-start loss or optimizer, the split or
 * the data order): every stored warm start then stops matching, and `npm run warmstarts` remakes
 * the shipped ones.
 */
export const WARM_START_ENGINE_VERSION = 2;
/** The backend shipped warm starts are made on (Node, tfjs wasm: bit-deterministic). */
export const SHIPPED_BACKEND = 'wasm';
export type WarmStartSource = 'trained' | 'shipped' | 'cached';

export interface WarmStartCache {
  /** The stored warm start under `key`, or null when there is none. May throw on an invalid one. */
  load(key: string, memberId: string): Promise<WarmStartFile | null>;
  /** Keep a warm start; may throw (quota, private mode): the run goes on without caching it. */
  save(file: WarmStartFile): Promise<void>;
}

// ---- the key --------------------------------------------------------------------------------

/** The policies' maxLen in a run of `spec` (lengths.ts, where the runner reads it too). */
export { runMaxLen } from './lengths';

/**
 * What the runner warm-starts a run of `spec` from (resolve.ts, where createRun takes it too): the
 * task, the root stream, the labeled pool of the split and the policies' maxLen. The script that
 * makes the shipped files uses it, so they are what a run would train.
 */
export { warmStartInputs } from './resolve';

/** Where a member's warm start may be stored: the backend in use (part of the key) and the cache. */
export interface WarmStartStore {
  backend: string;
  cache?: WarmStartCache;
}

export function warmStartKeyFields(
  spec: ExperimentSpec,
  member: MemberSpec,
  maxLen: number,
  backend: string,
): WarmStartKeyFields {
  const memberFields = (m: MemberSpec): WarmStartKeyFields['member'] => ({
    family: m.family,
    dModel: m.dModel,
    layers: m.layers,
    heads: m.heads,
    window: m.window,
    warmStartSteps: m.warmStartSteps,
    warmStartTarget: m.warmStartTarget,
    warmStartExamples: m.warmStartExamples,
    initSeed: m.initSeed,
    dataSeed: m.dataSeed,
  });
  // A dial member's weights depend on its source's warm start too (overlapDial.ts).
  const source = member.dial ? spec.members.find((m) => m.id === member.dial!.from) : undefined;
  return {
    engine: WARM_START_ENGINE_VERSION,
    backend,
    seed: spec.seed,
    // A custom task is named by its content: the same definition finds the same stored warm start.
    task: { id: spec.task.definition ? `custom:${taskContentHash(spec.task.definition)}` : spec.task.id, difficulty: spec.task.difficulty, scratchpad: spec.task.scratchpad },
    data: { labeledPool: spec.data.labeledPool, rlPool: spec.data.rlPool, heldOut: spec.data.heldOut },
    warmStart: memberWarmStart(spec, member),
    member: memberFields(member),
    maxLen,
    vocab: spec.task.definition ? taskVocabulary(resolveTask(spec.task)).tokens.join('') : VOCAB.join(''),
    maxValidation: MAX_VALIDATION,
    ...(member.dial && source
      ? { dial: { mode: member.dial.mode, share: member.dial.share, source: memberFields(source), sourceWarmStart: memberWarmStart(spec, source) } }
      : {}),
  };
}


/** The key a member's warm start is stored under, for a run of `spec` on `backend`. */
export function warmStartKey(spec: ExperimentSpec, member: MemberSpec, maxLen: number, backend: string): string {
  return keyOfFields(warmStartKeyFields(spec, member, maxLen, backend));
}


// ---- caches ---------------------------------------------------------------------------------

/** A cache in memory (tests; a page without storage). Holds the JSON form, as a store would. */
export function memoryWarmStartCache(): WarmStartCache & { entries: Map<string, WarmStartFileJson> } {
  const entries = new Map<string, WarmStartFileJson>();
  return {
    entries,
    async load(key) {
      const json = entries.get(key);
      return json ? decodeWarmStartFile(structuredClone(json)) : null;
    },
    async save(file) {
      entries.set(file.key, encodeWarmStartFile(file));
    },
  };
}

/** The stored form of a warm-started member. */
export async function warmStartFileOf(
  warm: WarmMember,
  fields: WarmStartKeyFields,
  origin: WarmStartFile['origin'],
): Promise<WarmStartFile> {
  return {
    key: keyOfFields(fields),
    keyFields: fields,
    memberId: warm.spec.id,
    origin,
    backend: fields.backend,
    warmStartSteps: warm.info.warmStartSteps ?? 0,
    ...(warm.info.warmStartReached !== undefined ? { reachedTarget: warm.info.warmStartReached } : {}),
    ...(warm.info.warmStartBest !== undefined ? { bestValidation: warm.info.warmStartBest } : {}),
    ...(warm.info.warmStartLast !== undefined ? { lastValidation: warm.info.warmStartLast } : {}),
    weights: await warm.reference.exportWeights(),
  };
}

/**
 * The target record of a stored warm start (docs/WARMSTARTS.md, "The guard"): the file's own when
 * it has one; for a file made before the guard, derived: a warm start stops before its budget
 * only at its target (buildMember never stops it otherwise), so fewer steps than the budget
 * means reached; one that used its whole budget is measured (one forward pass).
 */
export async function targetRecordOfFile(file: WarmStartFile, policy: Policy, c: WarmStartInputs, member: MemberSpec): Promise<TargetRecord> {
  if (member.warmStartTarget <= 0) return {};
  if (file.reachedTarget !== undefined) {
    return {
      warmStartReached: file.reachedTarget,
      ...(file.bestValidation !== undefined ? { warmStartBest: file.bestValidation } : {}),
      ...(file.lastValidation !== undefined ? { warmStartLast: file.lastValidation } : {}),
    };
  }
  if (file.warmStartSteps > 0 && file.warmStartSteps < member.warmStartSteps) return { warmStartReached: true };
  const value = await measureTarget(policy, c, member);
  return { warmStartReached: value >= member.warmStartTarget, warmStartLast: value };
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * A warm-started member: from the cache when it holds this warm start, else built (buildMember)
 * and saved to the cache. Tried in order: the key for `backend` (cached or shipped), then, on
 * another backend, the shipped file made on SHIPPED_BACKEND. A file that is invalid, stale or
 * does not fit the member is refused (the reason is in info.warmStartNote) and the member trains;
 * a failed save (quota, private mode) only adds a note.
 */
export async function loadOrBuildMember(
  c: WarmStartInputs & WarmStartStore,
  member: MemberSpec,
  onProgress?: WarmStartProgress,
): Promise<WarmMember & { source: WarmStartSource }> {
  const { spec, vocabSize, maxLen, root, backend, cache } = c;
  const notes: string[] = [];
  const fieldsFor = (b: string) => warmStartKeyFields(spec, member, maxLen, b);
  const usable = cache && vocabSize === runVocabSize(spec);
  if (usable) {
    const candidates = backend === SHIPPED_BACKEND ? [backend] : [backend, SHIPPED_BACKEND];
    for (const b of candidates) {
      const fields = fieldsFor(b);
      const key = keyOfFields(fields);
      let file: WarmStartFile | null;
      try {
        file = await cache.load(key, member.id);
      } catch (e) {
        notes.push(`a stored warm start was refused: ${errorText(e)}`);
        continue;
      }
      if (!file) continue;
      // Only the shipped files stand in for a warm start on another backend.
      if (b !== backend && file.origin !== 'shipped') continue;
      const problem = warmStartFileProblem(file, fields);
      if (problem) {
        notes.push(`the ${file.origin} warm start was refused: ${problem}`);
        continue;
      }
      const config = policyConfigFor(member, vocabSize, maxLen);
      const policy = createPolicy(config, root.child(`init/${member.initSeed}/${member.family}`));
      let record: TargetRecord;
      try {
        policy.importWeights(file.weights);
        record = await targetRecordOfFile(file, policy, c, member);
      } catch (e) {
        policy.dispose();
        notes.push(`the ${file.origin} warm start was refused: ${errorText(e)}`);
        continue;
      }
      const built: WarmMember = {
        spec: member,
        reference: policy,
        info: {
          id: member.id,
          family: member.family,
          params: policy.paramCount(),
          label: describePolicy(config),
          warmStartSteps: file.warmStartSteps,
          warmStartSource: file.origin,
          warmStartBackend: file.backend,
          ...record,
          ...(notes.length ? { warmStartNote: notes.join('; ') } : {}),
        },
      };
      return { ...built, source: file.origin };
    }
  }
  const built = await buildWarmMember(c, member, onProgress);
  if (usable) {
    try {
      await cache.save(await warmStartFileOf(built, fieldsFor(backend), 'cached'));
    } catch (e) {
      notes.push(`the warm start was not cached: ${errorText(e)}`);
    }
  }
  return {
    ...built,
    info: {
      ...built.info,
      warmStartSource: 'trained',
      warmStartBackend: backend,
      ...(notes.length ? { warmStartNote: [built.info.warmStartNote, ...notes].filter(Boolean).join('; ') } : {}),
    },
    source: 'trained',
  };
}
