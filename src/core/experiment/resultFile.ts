/**
 * Result files: the JSON `npm run experiment -- --out` and `npm run science -- --save` write (the
 * spec and one RunSummary per seed) and `npm run science -- --from/--table`, `npm run figures`
 * and `npm run references` read. A file on disk may be from any earlier version of the lab, so
 * every reader goes through parseResultFile: the version (RESULT_FILE_VERSION is written; an
 * older one is brought up by RESULT_FILE_MIGRATIONS, a newer one refused, src/core/persisted.ts),
 * the schema (summarySchema.ts, nulls read as NaN as in run files), then the runs checked against
 * their spec. Every failure is one line in words, never a throw. Pure: no DOM, no Node.
 *
 * Versions (docs/RELIABILITY.md, "Saved formats"):
 *   1  grew without a bump (git log -p -- src/core/experiment/events.ts): base warm-start steps
 *      (a2e0d75); KL null instead of 0 where beta is 0 (454c2cf); the mechanism metrics
 *      ownVoteAccuracy, rescueRate, misleadRate, sharedErrorRate, null reward accuracy and gap for
 *      the intrinsic schemes, the seed's members and the untrained pair's pooled maj@G (069209e);
 *      the base pairs' pass-rate correlation (775b09b).
 *   2  the fields of the last 1; the migration fills what an older 1 lacks as the readers read it.
 */
import { z } from '../zod';
import type { MemberInfo, RunSummary } from './events';
import { isPlainObject, quoteText, upgrade, zodIssues, type Migrations } from '../persisted';
import { ExperimentSpecSchema, SPEC_VERSION, type ExperimentSpec } from './spec';
import { JSON_SUMMARY, RUN_LIMITS } from './summarySchema';

/** The result file format this code writes. Bump it, and add a RESULT_FILE_MIGRATIONS entry, when it changes. */
export const RESULT_FILE_VERSION = 2;
/** Longest text read (512 MiB, about what one JavaScript string can hold). */
export const MAX_RESULT_FILE_CHARS = 512 * 1024 * 1024;
/** Most runs (seeds) in one file: the CLIs' --seeds limit. */
export const MAX_RESULT_RUNS = 50;

export interface ExperimentResultFile {
  version: typeof RESULT_FILE_VERSION;
  /** The validated spec, with the first run's seed. */
  spec: ExperimentSpec;
  /** One per seed; `members` as the base event described them (absent in files before 069209e). */
  runs: (RunSummary & { members?: MemberInfo[] })[];
}

/** The schemes without 0-1 label rewards: their reward accuracy and gap are null (events.ts). */
const INTRINSIC = new Set(['entropy', 'certainty']);
/** The mechanism metrics (069209e): not measured before, read as the readers read a gap. */
const MECHANISM = ['ownVoteAccuracy', 'rescueRate', 'misleadRate', 'sharedErrorRate'] as const;

/**
 * `RESULT_FILE_MIGRATIONS[n]` turns a version-n file (parsed JSON, not yet validated) into a
 * version-(n+1) one. 1 -> 2 fills each history entry of an older 1 as a file of today says "not
 * measured": the mechanism metrics null (reads as NaN, a '-' in the tables), KL null where beta is
 * 0 (it was written as 0), reward accuracy and gap null in the intrinsic arms. Fields that are
 * optional (the seed's members, base warm-start steps, the pooled pair, the pass correlation) stay
 * absent: the readers already read their absence (`?? NaN`).
 */
export const RESULT_FILE_MIGRATIONS: Migrations<Record<string, unknown>> = {
  1: (doc) => {
    const spec = doc.spec;
    const grpo = isPlainObject(spec) && isPlainObject(spec.grpo) ? spec.grpo : {};
    const noKl = (grpo.beta ?? 0) === 0;
    const runs = Array.isArray(doc.runs) ? doc.runs : [];
    for (const run of runs) {
      for (const arm of isPlainObject(run) && Array.isArray(run.arms) ? run.arms : []) {
        const intrinsic = isPlainObject(arm) && INTRINSIC.has(String(arm.scheme));
        for (const member of isPlainObject(arm) && Array.isArray(arm.members) ? arm.members : []) {
          for (const h of isPlainObject(member) && Array.isArray(member.history) ? member.history : []) {
            if (!isPlainObject(h)) continue;
            for (const k of MECHANISM) if (!(k in h)) h[k] = null;
            if (noKl && h.kl === 0) h.kl = null;
            if (intrinsic) h.rewardAccuracy = h.rewardGap = null;
          }
        }
      }
    }
    return { ...doc, version: 2 };
  },
};

const WORDS = { what: 'result file format', reader: 'this version', newer: 'Update Cohort Lab to read it' };

const ResultFileSchema = z.object({
  version: z.literal(RESULT_FILE_VERSION),
  spec: ExperimentSpecSchema,
  runs: z
    .array(JSON_SUMMARY.RunSummary.extend({ members: z.array(JSON_SUMMARY.MemberInfo).max(RUN_LIMITS.members).optional() }))
    .min(1, 'a result file holds at least one run')
    .max(MAX_RESULT_RUNS),
});
// What the schema gives is an ExperimentResultFile (a field added to the type but not here fails the typecheck).
const asResultFile = (f: z.output<typeof ResultFileSchema>): ExperimentResultFile => f;

export type ParseResultFile = { ok: true; file: ExperimentResultFile } | { ok: false; error: string };

/** A result file's text (untrusted). Never throws: a bad file is one line in words. */
export function parseResultFile(text: string, migrations: Migrations<Record<string, unknown>> = RESULT_FILE_MIGRATIONS): ParseResultFile {
  try {
    if (typeof text !== 'string') return fail('it is not text');
    if (text.length > MAX_RESULT_FILE_CHARS) return fail(`it is ${text.length} characters long; the limit is ${MAX_RESULT_FILE_CHARS}`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return fail('it is not valid JSON (cut short, or not a result file)');
    }
    if (!isPlainObject(value) || !('runs' in value)) return fail('it is not a result file (expected {"version": 2, "spec": …, "runs": […]} as npm run experiment -- --out writes)');
    const up = upgrade(value, RESULT_FILE_VERSION, migrations, WORDS);
    if (!up.ok) return fail(up.why);
    const specVersion = isPlainObject(up.doc.spec) ? up.doc.spec.version : undefined;
    if (typeof specVersion === 'number' && specVersion > SPEC_VERSION) {
      return fail(`its experiment was written by a newer Cohort Lab (spec version ${specVersion}; this version reads up to ${SPEC_VERSION})`);
    }
    const parsed = ResultFileSchema.safeParse(up.doc);
    if (!parsed.success) return fail(`it holds invalid values: ${zodIssues(parsed.error)}`);
    const file = asResultFile(parsed.data);
    const problem = resultFileProblem(file);
    return problem ? fail(problem) : { ok: true, file };
  } catch {
    // Every check above returns its own message; this is the net under them (and under migrations).
    return fail('it could not be read');
  }
}

/**
 * What the schema cannot see: every run is a run of the file's spec (its arms, their members, in
 * the steps it has), each seed once. Null when they are.
 */
export function resultFileProblem(file: ExperimentResultFile): string | null {
  const { spec } = file;
  const seeds = new Set<number>();
  for (const [i, run] of file.runs.entries()) {
    const at = `runs.${i} (seed ${run.seed})`;
    if (seeds.has(run.seed)) return `${at}: seed ${run.seed} appears twice`;
    seeds.add(run.seed);
    const armIds = run.arms.map((a) => a.id).join(', ');
    if (armIds !== spec.arms.map((a) => a.id).join(', ')) return `${at}: its arms are [${armIds}], the experiment's [${spec.arms.map((a) => a.id).join(', ')}]`;
    for (const arm of run.arms) {
      const want = spec.arms.find((a) => a.id === arm.id)!.members;
      const got = arm.members.map((m) => m.id);
      if (got.join(', ') !== want.join(', ')) return `${at}: arm ${arm.id} has members [${got.join(', ')}], the experiment [${want.join(', ')}]`;
      for (const m of arm.members) {
        const bad = m.history.find((h, k) => h.step < 1 || h.step > spec.steps || (k > 0 && h.step <= m.history[k - 1].step));
        if (bad) return `${at}: arm ${arm.id}, member ${m.id}: step ${bad.step} is out of order or outside 1-${spec.steps}`;
      }
    }
    const members = new Set(spec.members.map((m) => m.id));
    const stranger = [...run.base.map((b) => b.memberId), ...run.baseKappa.flatMap((k) => [k.a, k.b])].find((id) => !members.has(id));
    if (stranger !== undefined) return `${at}: its base evaluation names member ${quoteText(stranger)}, which the experiment does not have`;
  }
  return null;
}

function fail(why: string): ParseResultFile {
  return { ok: false, error: why.replace(/\s*\n\s*/g, ' ') };
}
