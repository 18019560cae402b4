/**
 * Models for the TRL export: one per cohort member, in the spec's member order, each a Hugging
 * Face model id or a local folder (a saved checkpoint: what from_pretrained reads). Checked by
 * form only (nothing is looked up or read): an id is `name` or `owner/name`, letters, digits, '.',
 * '_' and '-', no '--' or '..', at most 96 characters per part; a local folder starts with '/',
 * './' or '../' and holds letters, digits, '.', '_', '-' and '/' only (no spaces or shell
 * characters: the path reaches config.json, the README and a shell command line), at most
 * LOCAL_PATH_MAX characters.
 */
export const DEFAULT_MODEL_ID = 'Qwen/Qwen2.5-0.5B-Instruct';

const PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

export const LOCAL_PATH_MAX = 512;

/** Does `id` name a local folder (starts with '/', './' or '../') rather than a hub id? */
export function isLocalModelPath(id: string): boolean {
  const v = id.trim();
  return v.startsWith('/') || v.startsWith('./') || v.startsWith('../');
}

/** Why a local model folder's path is refused, or null. */
function localPathProblem(v: string): string | null {
  if (v.length > LOCAL_PATH_MAX) return `a local model path of ${v.length} characters is longer than ${LOCAL_PATH_MAX}`;
  if (!/^[A-Za-z0-9._/-]+$/.test(v)) {
    return `"${v}" is not a usable local model path: letters, digits, '.', '_', '-' and '/' only (no spaces or shell characters)`;
  }
  return null;
}

/** Why `id` is neither a model id nor a local model folder's path, or null when it is one. */
export function modelIdProblem(id: string): string | null {
  const v = id.trim();
  if (v === '') return 'a model id is needed, e.g. Qwen/Qwen2.5-0.5B-Instruct';
  if (isLocalModelPath(v)) return localPathProblem(v);
  const parts = v.split('/');
  if (parts.length > 2) return `"${v}" has more than one '/': a model id is owner/name`;
  for (const p of parts) {
    if (!PART.test(p) || p.includes('--') || p.includes('..') || p.endsWith('.') || p.endsWith('-')) {
      return `"${v}" is not a Hugging Face model id (owner/name: letters, digits, '.', '_', '-') or a local folder (starting with /, ./ or ../)`;
    }
  }
  return null;
}

/** The model count must equal the member count: one sentence naming what is missing or extra. */
export function modelCountProblem(memberIds: readonly string[], models: readonly string[]): string | null {
  if (models.length === memberIds.length) return null;
  const n = memberIds.length;
  return `the experiment has ${n} member${n === 1 ? '' : 's'} (${memberIds.join(', ')}) and ${models.length} model id${models.length === 1 ? ' was' : 's were'} given: give one per member, in that order`;
}

/**
 * Members given the same model id, as one warning each, or none. Two members of one model start
 * from the same weights; in the lab they would differ by init and warm-start seeds as well, and
 * here only their sampling seeds tell them apart (clones would make a peer arm a self arm).
 */
export function sharedModelWarnings(memberIds: readonly string[], models: readonly string[]): string[] {
  const byModel = new Map<string, string[]>();
  memberIds.forEach((id, i) => {
    const model = (models[i] ?? '').trim();
    if (model) byModel.set(model, [...(byModel.get(model) ?? []), id]);
  });
  return [...byModel.entries()]
    .filter(([, ids]) => ids.length > 1)
    .map(
      ([model, ids]) =>
        `members ${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]} share the model ${model}: they start from the same weights and differ only by their sampling seeds ` +
        '(config.json sampling_seed), not by initialisation or warm-start data as in the lab; give a different model (or checkpoint) for a truly different peer',
    );
}

/**
 * Parameters in billions read from a model id (`0.5B`, `135M`, `7b`), or null. Only for the
 * README's rough GPU memory estimate; ids without a size in the name get the formula alone.
 */
export function paramsFromId(id: string): number | null {
  const name = id.split('/').pop() ?? id;
  const m = /(?:^|[^0-9.])(\d+(?:\.\d+)?)([BbMm])(?![A-Za-z0-9])/.exec(name);
  if (!m) return null;
  const n = Number(m[1]);
  return m[2].toLowerCase() === 'b' ? n : n / 1000;
}
