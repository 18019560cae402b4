/**
 * The pieces of `npm run references` worth testing on their own: a reference (src/share/reference.ts)
 * aggregated from a result file (ExperimentResultFile: `npm run science -- --save DIR` or
 * `npm run experiment -- --out`), the refusal of a result file made for another spec, and the
 * check of the shipped references against their presets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { version as appVersion } from '../../package.json';
import type { BasePair, BaseEvaluation, RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { getPreset, PRESETS } from '../../src/core/experiment/presets';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { isPlainObject } from '../../src/core/persisted';
import { mergePatchDiff } from '../../src/share/mergePatch';
import {
  MAX_REFERENCE_SEEDS,
  REFERENCE_DECIMALS,
  REFERENCE_FORMAT,
  REFERENCE_INDEX_FILE,
  REFERENCE_INDEX_FORMAT,
  REFERENCE_MEMBER_EVAL_METRICS,
  REFERENCE_MEMBER_METRICS,
  REFERENCE_PAIR_EVAL_METRICS,
  REFERENCE_PAIR_METRICS,
  REFERENCE_VERSION,
  type ReferenceArm,
  type ReferenceFile,
  type ReferenceIndex,
  type ReferenceMember,
  type ReferencePair,
  type SeriesStat,
  meanSd,
  parseReference,
  parseReferenceIndex,
  referenceFingerprint,
  referenceProblem,
  seedsText,
} from '../../src/share/reference';

/** Where the shipped references live (served at <base>references/). */
export const SHIPPED_REFERENCE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/references');

export type BuildResult = { ok: true; reference: ReferenceFile } | { ok: false; error: string };

/**
 * The reference of preset `presetId` from a result file (read by parseResultFile: valid, of the
 * current version): refused, with the reason in words, when its spec differs from the preset's
 * in anything but the seed, or its runs are not complete runs of that spec. `source` names the
 * file in messages.
 */
export function buildReference(presetId: string, file: ExperimentResultFile, opts: { source?: string; createdAt?: Date } = {}): BuildResult {
  const source = opts.source ?? 'the result file';
  const fail = (why: string): BuildResult => ({ ok: false, error: `${source}: ${why}` });
  const preset = getPreset(presetId);
  if (!preset) return fail(`no preset "${presetId}" (known: ${Object.keys(PRESETS).join(', ')})`);
  const spec = file.spec;
  const differences = specDifferences(preset.spec, spec);
  if (differences.length) {
    return fail(
      `its spec differs from the shipped preset "${presetId}" in ${differences.slice(0, 6).join('; ')}${differences.length > 6 ? ` (and ${differences.length - 6} more)` : ''}` +
        ` (only the seed may differ): rerun it with npm run science -- --preset ${presetId} --save DIR, or npm run experiment -- --preset ${presetId} --seeds 1,2,3,4,5,6,7,8 --out DIR/${presetId}.json`,
    );
  }
  if (file.runs.length > MAX_REFERENCE_SEEDS) return fail(`it holds ${file.runs.length} runs; a reference summarises at most ${MAX_REFERENCE_SEEDS}`);
  const runs: RunSummary[] = file.runs;
  const seeds = runs.map((r) => r.seed);

  // Every run must be a whole run of the spec: its arms and members, the same steps throughout.
  const steps = runs[0].arms[0]?.members[0]?.history.map((h) => h.step) ?? [];
  if (steps.length === 0) return fail(`seed ${seeds[0]} holds no RL step`);
  if (steps.length !== spec.steps || steps.some((s, i) => s !== i + 1)) return fail(`seed ${seeds[0]} has ${steps.length} RL steps; the preset has ${spec.steps} (a stopped or --steps run?)`);
  for (const run of runs) {
    for (const specArm of spec.arms) {
      const arm = run.arms.find((a) => a.id === specArm.id);
      if (!arm) return fail(`seed ${run.seed} has no arm "${specArm.id}"`);
      for (const m of specArm.members) {
        const member = arm.members.find((x) => x.id === m);
        if (!member) return fail(`seed ${run.seed}, arm ${arm.id} has no member "${m}"`);
        if (member.history.length !== steps.length || member.history.some((h, i) => h.step !== steps[i])) {
          return fail(`seed ${run.seed}, arm ${arm.id}, member ${m}: its steps are not ${steps.length} steps 1-${steps.length}`);
        }
      }
    }
    if (run.arms.length !== spec.arms.length) return fail(`seed ${run.seed} has arms the preset does not have`);
  }

  const evalSet = new Set<number>();
  for (const run of runs) for (const arm of run.arms) for (const m of arm.members) for (const h of m.history) if (h.evalPassAt1 !== undefined || h.evalMajAtG !== undefined) evalSet.add(h.step);
  const evalSteps = steps.filter((s) => evalSet.has(s));

  const arms: ReferenceArm[] = spec.arms.map((specArm) => {
    const perRun = runs.map((r) => r.arms.find((a) => a.id === specArm.id)!);
    const members: ReferenceMember[] = specArm.members.map((id) => {
      const histories = perRun.map((a) => a.members.find((m) => m.id === id)!.history);
      const out = { id } as ReferenceMember;
      const index = steps.map((_, i) => i);
      for (const k of REFERENCE_MEMBER_METRICS) out[k] = stat(index, (i) => histories.map((h) => h[i][k]));
      const evalIndex = evalSteps.map((s) => steps.indexOf(s));
      for (const k of REFERENCE_MEMBER_EVAL_METRICS) out[k] = stat(evalIndex, (i) => histories.map((h) => h[i][k]));
      return out;
    });
    const pairKeys: [string, string][] = [];
    for (const a of perRun) for (const p of a.pairs) if (!pairKeys.some(([x, y]) => x === p.a && y === p.b)) pairKeys.push([p.a, p.b]);
    const pairs: ReferencePair[] = pairKeys.map(([a, b]) => {
      const at = perRun.map((arm) => new Map(arm.pairs.filter((p) => p.a === a && p.b === b).map((p) => [p.step, p])));
      const out = { a, b } as ReferencePair;
      for (const k of REFERENCE_PAIR_METRICS) out[k] = stat(steps, (s) => at.map((m) => m.get(s)?.[k]));
      for (const k of REFERENCE_PAIR_EVAL_METRICS) out[k] = stat(evalSteps, (s) => at.map((m) => m.get(s)?.[k]));
      return out;
    });
    const arm: ReferenceArm = { id: specArm.id, scheme: specArm.scheme, members, pairs };
    if (perRun.some((a) => a.ensemble.length > 0)) {
      const at = perRun.map((a) => new Map(a.ensemble.map((e) => [e.step, e.majAtG])));
      arm.ensembleMajAtG = stat(evalSteps, (s) => at.map((m) => m.get(s)));
    }
    return arm;
  });

  const baseOf = (run: RunSummary, id: string): BaseEvaluation | undefined => run.base.find((b) => b.memberId === id);
  const pairOf = (run: RunSummary, a: string, b: string): BasePair | undefined => run.baseKappa.find((p) => p.a === a && p.b === b);
  const basePairs: [string, string][] = [];
  for (const run of runs) for (const p of run.baseKappa) if (!basePairs.some(([x, y]) => x === p.a && y === p.b)) basePairs.push([p.a, p.b]);
  const stepMs = runs.map((r) => r.medianStepMs).filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const backends = [...new Set(runs.map((r) => r.backend))];

  const reference: ReferenceFile = {
    format: REFERENCE_FORMAT,
    version: REFERENCE_VERSION,
    preset: presetId,
    createdAt: (opts.createdAt ?? new Date()).toISOString(),
    app: { name: 'cohort-lab', version: appVersion },
    seeds,
    backend: backends.join(', '),
    medianStepMs: stepMs.length ? Math.round(stepMs[Math.floor(stepMs.length / 2)]) : null,
    band: 'sd',
    decimals: REFERENCE_DECIMALS,
    fingerprint: referenceFingerprint(preset.spec),
    spec: preset.spec,
    steps,
    evalSteps,
    base: {
      members: spec.members
        .filter((m) => runs.some((r) => baseOf(r, m.id)))
        .map((m) => ({ id: m.id, passAt1: meanSd(runs.map((r) => baseOf(r, m.id)?.passAt1)), majAtG: meanSd(runs.map((r) => baseOf(r, m.id)?.majAtG)) })),
      pairs: basePairs.map(([a, b]) => ({
        a,
        b,
        kappa: meanSd(runs.map((r) => pairOf(r, a, b)?.kappa)),
        bothWrongSame: meanSd(runs.map((r) => pairOf(r, a, b)?.bothWrongSame)),
        pooledMajAtG: meanSd(runs.map((r) => pairOf(r, a, b)?.pooledMajAtG)),
      })),
    },
    arms,
  };
  const problem = referenceProblem(reference);
  return problem ? fail(`the reference made from it is inconsistent: ${problem}`) : { ok: true, reference };
}

/** Seed-mean and sd at each of `keys`, from the per-seed values `valuesAt(key)` gives. */
function stat<K>(keys: readonly K[], valuesAt: (key: K) => (number | null | undefined)[]): SeriesStat {
  const out: SeriesStat = { mean: [], sd: [] };
  for (const k of keys) {
    const s = meanSd(valuesAt(k));
    out.mean.push(s.mean);
    out.sd.push(s.sd);
  }
  return out;
}

/**
 * Where spec `b` differs from `a`, the seed left out: "steps: 80 in the preset, 40 in the file",
 * one entry per changed field (arrays of the same length compared item by item: members.1.initSeed).
 */
export function specDifferences(a: ExperimentSpec, b: ExperimentSpec, names: [string, string] = ['the preset', 'the file']): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: string[]) => {
    if (mergePatchDiff(x, y) === undefined) return;
    const both = (isPlainObject(x) && isPlainObject(y)) || (Array.isArray(x) && Array.isArray(y) && x.length === y.length);
    if (both) {
      const keys = Array.isArray(x) ? x.map((_, i) => String(i)) : [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])];
      for (const k of keys) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], [...path, k]);
      return;
    }
    out.push(`${path.join('.')}: ${show(x)} in ${names[0]}, ${show(y)} in ${names[1]}`);
  };
  walk({ ...a, seed: 0 }, { ...b, seed: 0 }, []);
  return out;
}

function show(v: unknown): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The index after writing `entries` into `previous` (others kept unless their file is gone), sorted by preset. */
export function nextIndex(previous: ReferenceIndex | null, entries: ReferenceIndex['references'], fileExists: (file: string) => boolean): ReferenceIndex {
  const byPreset = new Map((previous?.references ?? []).filter((r) => fileExists(r.file)).map((r) => [r.preset, r]));
  for (const e of entries) byPreset.set(e.preset, e);
  return { format: REFERENCE_INDEX_FORMAT, version: REFERENCE_VERSION, references: [...byPreset.values()].sort((x, y) => (x.preset < y.preset ? -1 : 1)) };
}

/** The index in `dir`, or null when there is none (a bad one is an error). */
export function readIndex(dir: string): ReferenceIndex | null {
  const path = join(dir, REFERENCE_INDEX_FILE);
  if (!existsSync(path)) return null;
  const r = parseReferenceIndex(readFileSync(path, 'utf8'));
  if (!r.ok) throw new Error(`${path}: ${r.error}`);
  return r.index;
}

export interface CheckResult {
  ok: boolean;
  /** One line per shipped reference that is fine. */
  fine: string[];
  problems: string[];
  /** Presets with no shipped reference. */
  missing: string[];
}

/**
 * Whether every shipped reference in `dir` still belongs to its preset (the same spec, seed aside),
 * reads as a valid reference, and is listed in the index as it is.
 */
export function checkReferences(dir: string = SHIPPED_REFERENCE_DIR): CheckResult {
  const fine: string[] = [];
  const problems: string[] = [];
  let index: ReferenceIndex | null = null;
  try {
    index = readIndex(dir);
  } catch (e) {
    problems.push((e as Error).message);
  }
  const listed = new Set((index?.references ?? []).map((r) => r.file));
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && f !== REFERENCE_INDEX_FILE) : [];
  for (const f of files) if (!listed.has(f)) problems.push(`${join(dir, f)} is not listed in ${REFERENCE_INDEX_FILE} (remake it with npm run references)`);
  for (const entry of index?.references ?? []) {
    const path = join(dir, entry.file);
    const preset = getPreset(entry.preset);
    if (!preset) {
      problems.push(`${path}: there is no preset "${entry.preset}" any more: remove the file and its index entry`);
      continue;
    }
    if (!existsSync(path)) {
      problems.push(`${path} is listed in ${REFERENCE_INDEX_FILE} but missing`);
      continue;
    }
    const text = readFileSync(path, 'utf8');
    const r = parseReference(text);
    if (!r.ok) {
      problems.push(`${path}: ${r.error}`);
      continue;
    }
    const ref = r.reference;
    const remake = `remake it: npm run science -- --preset ${entry.preset} --save DIR (or npm run experiment -- --preset ${entry.preset} --seeds ${ref.seeds.join(',')} --out DIR/${entry.preset}.json), then npm run references -- --from DIR --preset ${entry.preset}`;
    if (ref.preset !== entry.preset) problems.push(`${path} is the reference of "${ref.preset}", listed as "${entry.preset}"`);
    else if (ref.fingerprint !== referenceFingerprint(preset.spec)) {
      const diff = specDifferences(ref.spec, preset.spec, ['the reference', 'the preset']);
      problems.push(`${path} no longer matches preset "${entry.preset}" (${diff.slice(0, 4).join('; ') || 'its fingerprint differs'}): ${remake}`);
    } else if (entry.fingerprint !== ref.fingerprint || entry.bytes !== text.length || entry.seeds.join(',') !== ref.seeds.join(',')) {
      problems.push(`${path}: its ${REFERENCE_INDEX_FILE} entry does not describe it (fingerprint, bytes or seeds): rerun npm run references`);
    } else fine.push(`${entry.preset}: ${seedsText(ref.seeds)} on ${ref.backend}, ${(text.length / 1024).toFixed(1)} KiB, matches the preset`);
  }
  const have = new Set((index?.references ?? []).map((r) => r.preset));
  const missing = Object.keys(PRESETS).filter((p) => !have.has(p));
  return { ok: problems.length === 0, fine, problems, missing };
}
