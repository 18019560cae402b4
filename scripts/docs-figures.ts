/**
 * One source for every figure the docs quote. The README and docs/*.md hold generated blocks
 * (`<!-- generated:NAME -->` ... `<!-- /generated:NAME -->`) made here from where each figure is
 * measured or defined:
 *
 *   presets.ts          a preset's title, members, arms, RL steps and the seed its link opens
 *   presetRuntimes.ts   a preset's measured time from its link (else the preset's own `runtime`),
 *                       itself checked against bench/results/page.json, where `npm run bench -- --page` writes
 *   docs/RESULTS.md     the headline verdicts (its generated summary, `npm run science --summary`)
 *   overlapReference.ts the overlap preset's confirmation points, against which RESULTS' overlap
 *                       verdicts are recomputed (cli/science/science-overlap-claims.ts)
 *   public/warmstarts/, public/references/   the shipped files: sizes, members, seeds
 *   workshop/sequence.ts  the workshop's steps
 *
 * and `figureProblems` reads the prose around them for figures that a block cannot hold: a time
 * "from its link", a shipped file's size, a saved format's version, a seed, a doc nobody links.
 * `npx tsx scripts/docs.ts --write` fills the blocks; scripts/docs-figures.test.ts (in `npm test`)
 * fails when a block or a checked figure disagrees with its source.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PRESET, PRESETS, type Preset } from '../src/core/experiment/presets';
import { ROOM_SEEDS } from '../src/core/experiment/roomSeeds';
import { DEFAULT_PARTNER_WAIT_S } from '../src/room/protocol';
import { PRESET_RUNTIMES } from '../src/app/controls/presetRuntimes';
import { WORKSHOP, seedsMeasured, type WorkshopStep } from '../src/app/workshop/sequence';
import { PLAN, planText, seedRange } from '../cli/science/science-plan';
import { OVERLAP_REFERENCE } from '../src/app/panels/overlapReference';
import { overlapClaim, readingsFromPoints, type OverlapLevelPoint } from '../cli/science/science-overlap-claims';
import { holmVerdicts } from '../cli/science/science-paired';
import type { VerdictTiming } from '../cli/bench/bench-verdict';
import { VERDICT_QUESTIONS } from '../cli/bench/verdict-questions';

// ---- sources -----------------------------------------------------------------------------------

interface ShippedFile {
  key: string;
  bytes: number;
  members: string[];
}

interface ShippedReference {
  preset: string;
  seeds: number[];
  bytes: number;
}

export interface Sources {
  /** docs/RESULTS.md, whole. */
  results: string;
  warmStarts: ShippedFile[];
  /** public/warmstarts/room/index.json: the rooms' seeds' warm starts (src/core/experiment/roomSeeds.ts). */
  roomWarmStarts: ShippedFile[];
  references: ShippedReference[];
  /** Bytes of tfjs's three wasm binaries, which the offline cache holds too. */
  wasmBytes: number;
  /** package.json's engines.node. */
  nodeEngine: string | undefined;
  /** `npm run bench -- --page`'s last timing of each link (bench/results/page.json). */
  pageTimings: PageTimingRow[];
  /** The overlap preset's confirmation points (per seed and level: partner's base kappa, A's gain). */
  overlapPoints: readonly OverlapLevelPoint[];
  /** `npm run bench -- --verdict`'s rows (bench/results/verdict.json): each question's verdict on the page and its time. */
  verdicts: VerdictTiming[];
}

/** One row of bench/results/page.json (cli/bench/bench-browser.ts writes more fields). */
export interface PageTimingRow {
  query: string;
  browser: string;
  doneS: number;
  timedOut: boolean;
  date: string;
}

export function readSources(root: string): Sources {
  const json = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
  const wasmDir = join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist');
  const wasmBytes = existsSync(wasmDir)
    ? readdirSync(wasmDir).filter((f) => f.endsWith('.wasm')).reduce((n, f) => n + statSync(join(wasmDir, f)).size, 0)
    : 0;
  return {
    results: readFileSync(join(root, 'docs/RESULTS.md'), 'utf8'),
    warmStarts: json('public/warmstarts/index.json').files,
    roomWarmStarts: json('public/warmstarts/room/index.json').files,
    references: json('public/references/index.json').references,
    wasmBytes,
    nodeEngine: json('package.json').engines?.node,
    pageTimings: json('bench/results/page.json'),
    overlapPoints: OVERLAP_REFERENCE,
    verdicts: existsSync(join(root, 'bench/results/verdict.json')) ? json('bench/results/verdict.json') : [],
  };
}

const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
const presetIds = () => Object.keys(PRESETS);

/** A preset's measured time from its link, as the preset card says it; null where none was measured. */
export function linkTime(id: string): { text: string; note: string } | null {
  const measured = PRESET_RUNTIMES[id];
  if (measured) return { text: measured.range, note: measured.machine };
  const m = /whole run (?:in )?(\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)? (?:s|min))/.exec(PRESETS[id]?.runtime ?? '');
  return m ? { text: m[1], note: "the preset's own runtime text (presets.ts), which says where it was measured" } : null;
}

/** A time or a range of times in seconds ("43-44 s" -> [43, 44]; "1.7 min" -> [102, 102]), with half its last digit. */
export function seconds(text: string): { lo: number; hi: number; slack: number } | null {
  const m = /^(\d+(?:\.\d+)?)(?:\s*[-–]\s*(\d+(?:\.\d+)?))?\s*(s|min)$/.exec(text.trim());
  if (!m) return null;
  const unit = m[3] === 'min' ? 60 : 1;
  const decimals = Math.max((m[1].split('.')[1] ?? '').length, ((m[2] ?? '').split('.')[1] ?? '').length);
  return { lo: Number(m[1]) * unit, hi: Number(m[2] ?? m[1]) * unit, slack: (unit * 0.5) / 10 ** decimals };
}

// ---- generated blocks --------------------------------------------------------------------------

interface SummaryRow {
  claim: string;
  preset: string;
  confirmation: string;
  headline: string;
}

/** The rows of RESULTS' generated summary (block `science:summary`). */
export function summaryRows(results: string): SummaryRow[] {
  const block = /<!-- science:summary -->\n([\s\S]*?)<!-- \/science:summary -->/.exec(results);
  if (!block) throw new Error('docs/RESULTS.md has no science:summary block');
  return block[1]
    .split('\n')
    .filter((l) => l.startsWith('| ('))
    .map((l) => {
      const [claim, preset, , confirmation, headline] = l.slice(2, -2).split(' | ');
      return { claim, preset, confirmation, headline };
    });
}

/** README's table of headline verdicts: one row per claim, one entry per preset it was read on. */
function headlinesBlock(src: Sources): string {
  const byClaim = new Map<string, string[]>();
  for (const r of summaryRows(src.results)) {
    // "+0.15 [+0.11, +0.19] SHOWN; Holm SHOWN (seeds 101-108)"
    const m = /^(\S+ \[\S+, \S+\]) .*\(seeds ([\d,-]+)\)$/.exec(r.confirmation);
    const verdict = r.headline.replace(/\*/g, '').toLowerCase();
    const seeds = m && m[2] !== '101-108' ? `, seeds ${m[2]}` : '';
    const entry = m ? `\`${r.preset}\` **${verdict}** ${m[1]}${seeds}` : `\`${r.preset}\` ${verdict}`;
    byClaim.set(r.claim, [...(byClaim.get(r.claim) ?? []), entry]);
  }
  return [
    '| claim | headline per preset: Holm verdict, mean [95% CI] of the paired difference on the confirmation seeds (101-108 unless named) |',
    '|---|---|',
    ...[...byClaim].map(([claim, entries]) => `| ${claim} | ${entries.join('; ')} |`),
  ].join('\n');
}

/** "2 MLPs", "3 transformers, 1 MLP". */
function models(p: Preset): string {
  const count = new Map<string, number>();
  for (const m of p.spec.members) count.set(m.family, (count.get(m.family) ?? 0) + 1);
  const name = (f: string, n: number) => `${n} ${f === 'mlp' ? 'MLP' : f === 'gru' ? 'GRU' : f}${n === 1 ? '' : 's'}`;
  return [...count].map(([f, n]) => name(f, n)).join(', ');
}

function timeCell(id: string): string {
  const t = linkTime(id);
  if (!t) {
    const cli = /(\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)? (?:s|min)) per seed/.exec(PRESETS[id].runtime);
    return cli ? `not timed from its link (CLI: ${cli[1]} per seed)` : 'not measured';
  }
  if (PRESET_RUNTIMES[id]) return t.text;
  // A preset's own text says where its figure comes from: a machine other jobs were loading, or the earlier engine.
  return /shared with other runs/.test(PRESETS[id].runtime) ? `${t.text} (loaded machine)` : `${t.text} (earlier engine)`;
}

/** README's presets table. */
function presetsBlock(src: Sources): string {
  const refs = new Map(src.references.map((r) => [r.preset, r]));
  const ids = [DEFAULT_PRESET, ...presetIds().filter((id) => id !== DEFAULT_PRESET)];
  const machines = new Set(Object.values(PRESET_RUNTIMES).map((r) => r.measuredOn));
  return [
    '| preset | the question | models | arms | RL steps | its link\'s seed | reference run (seeds) | time from its link |',
    '|---|---|---|---|---:|---:|---|---|',
    ...ids.map((id) => {
      const p = PRESETS[id];
      const ref = refs.get(id);
      const name = id === DEFAULT_PRESET ? `\`${id}\` (default)` : `\`${id}\``;
      return `| ${name} | ${p.title} | ${models(p)} | ${p.spec.arms.map((a) => a.id).join(', ')} | ${p.spec.steps} | ${p.spec.seed} | ${ref ? seedRange(ref.seeds) : 'none'} | ${timeCell(id)} |`;
    }),
    '',
    `Times: on ${[...machines].join('; ')}; "earlier engine": timed on a quiet 2-core machine before the engine's speed-ups, ` +
      'not remeasured since; "loaded machine": timed on a 2-core machine that other jobs were loading (the preset\'s card says how much), not a fresh one; "CLI": `npm run experiment` on a 2-core machine, warm start included, not timed in the page.',
  ].join('\n');
}

/** LAB.md's list of shipped reference runs. */
function referencesBlock(src: Sources): string {
  const total = src.references.reduce((n, r) => n + r.bytes, 0);
  return [
    '| preset | seeds (wasm) | size |',
    '|---|---|---:|',
    ...src.references.map((r) => `| \`${r.preset}\` | ${seedRange(r.seeds)} | ${Math.round(r.bytes / 1000)} KB |`),
    '',
    `${src.references.length} reference runs, about ${MB(total)} MB in all (\`public/references/index.json\`).`,
  ].join('\n');
}

/** CLASSROOM.md's workshop steps. */
function workshopBlock(): string {
  return [
    '| step | preset | title | RL steps | time from its link |',
    '|---:|---|---|---:|---|',
    ...WORKSHOP.map((s, i) => `| ${i + 1} | \`${s.presetId}\` | ${s.title} | ${PRESETS[s.presetId].spec.steps} | ${timeCell(s.presetId)} |`),
  ].join('\n');
}

/** WARMSTARTS.md: which preset members share a shipped warm start, and the folder's size. */
function warmStartsBlock(src: Sources): string {
  const total = src.warmStarts.reduce((n, f) => n + f.bytes, 0);
  const shared = src.warmStarts.filter((f) => f.members.length > 1).map((f) => f.members.map((m) => `\`${m}\``).join(' = '));
  return [
    `\`public/warmstarts/\` holds ${src.warmStarts.length} files, about ${MB(total)} MB in all. Members that share one file:`,
    '',
    ...shared.map((s) => `- ${s}`),
  ].join('\n');
}

/** WARMSTARTS.md: the rooms' seeds' folder, per preset: its seeds, files and size. */
function roomWarmStartsBlock(src: Sources): string {
  const total = src.roomWarmStarts.reduce((n, f) => n + f.bytes, 0);
  const lines = [`\`public/warmstarts/room/\` holds ${src.roomWarmStarts.length} files, about ${MB(total)} MB in all (none of them precached):`, ''];
  for (const [id, list] of Object.entries(ROOM_SEEDS)) {
    const files = src.roomWarmStarts.filter((f) => f.members.some((m) => m.startsWith(`${id}/`)));
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    const own = PRESETS[id].spec.seed;
    const seeds = list.seeds;
    lines.push(
      `- \`${id}\`: seeds ${seeds[0]}-${seeds[seeds.length - 1]} (${seeds.length}; ${list.note}), ` +
        `${list.levels ? `each seed with the two members of the level its position in the list serves (a pair, or a seat of an unpaired room)` : 'every member'}: ${files.length} files, about ${MB(bytes)} MB` +
        (seeds.includes(own) ? `; seed ${own}, its link's, is in \`public/warmstarts/\`` : ''),
    );
  }
  return lines.join('\n');
}

/** The page's target from "Use this task" to the verdict (docs/TASKS.md), in seconds. */
export const VERDICT_TARGET_S = 180;

/**
 * Why the page could not tell, in a few words, from its sentence: the clause after "helps: " (up to
 * its numbers in brackets), and the measured miss it quotes first among what would help.
 */
export function cannotTellCause(sentence: string): string {
  const why = /peer helps: (.*?)(?: \(|\. What would help|\.$)/.exec(sentence)?.[1] ?? '';
  const miss = /What would help: (Member \w+'s warm start reached at best [^,]*)/.exec(sentence)?.[1];
  return (miss ? `${why}; ${miss}` : why).replace(/\|/g, '\\|');
}

/** TASKS.md: each question's verdict on the page and its time, from bench/results/verdict.json, in the questions' order. */
export function verdictsBlock(src: Pick<Sources, 'verdicts'>): string {
  const words: Record<string, string> = { shown: 'shown', 'not shown': 'not shown', contradicted: 'contradicted' };
  const part = (t: VerdictTiming, id: string, up: string, down: string) =>
    t.parts[id] === 'shown' ? up : t.parts[id] === 'contradicted' ? down : t.parts[id] ? words[t.parts[id]] : '–';
  const rows = VERDICT_QUESTIONS.map((q) => src.verdicts.find((t) => t.question === q.id)).filter((t): t is VerdictTiming => t != null);
  if (rows.length === 0) return 'No question has been timed yet (`npm run bench -- --no-node --no-browser --no-bundle --no-torch --verdict all`).';
  const browsers = [...new Set(rows.map((t) => t.browser))].join(', ');
  const dates = [...new Set(rows.map((t) => t.date))].sort().join(', ');
  const loads = rows.map((t) => t.load);
  const within = rows.filter((t) => t.seconds !== null && t.seconds <= VERDICT_TARGET_S).length;
  const verdicts = rows.filter((t) => t.state === 'verdict');
  const learnt = verdicts.filter((t) => t.parts.truth === 'shown').length;
  const summary =
    `Within 3 minutes: ${within} of ${rows.length}. A verdict on ${verdicts.length}, each where the oracle learnt (${learnt} of ${verdicts.length}); ` +
    `"cannot tell" on ${rows.filter((t) => t.state === 'cannot-tell').length}${rows.some((t) => t.state === 'timed out') ? `; no answer within the timeout on ${rows.filter((t) => t.state === 'timed out').length}` : ''}.`;
  return [
    `${rows.length} questions, ${browsers}, wasm, ${dates}, one run each on a 2-core machine shared with other jobs; load: its 1-minute load average when the question ended (${Math.min(...loads)} to ${Math.max(...loads)}; above 2 the page had less than its 2 cores, so the seconds are slower than a quiet machine's).`,
    '',
    '| question | put in as | the page read | seeds | oracle | self | peer | peer − self | seconds to the verdict | within 3 min | load |',
    '|---|---|---|---:|---|---|---|---|---:|---|---:|',
    ...rows.map((t) => {
      const cells = [
        `\`${t.question}\``,
        `${t.kind === 'gallery' ? 'gallery pick' : t.kind === 'generator' ? 'typed generator' : 'data file'}: ${t.what.replace(/\|/g, '\\|')}`,
        t.state === 'verdict' ? '**verdict**' : t.state === 'cannot-tell' ? `**cannot tell**: ${cannotTellCause(t.sentence)}` : t.state,
        String(t.seeds),
        part(t, 'truth', 'learnt', 'fell'),
        t.state === 'verdict' ? part(t, 'self', 'rose', 'fell') : '–',
        t.state === 'verdict' ? part(t, 'peer', 'rose', 'fell') : '–',
        t.state === 'verdict' ? part(t, 'peerOverSelf', 'peer above', 'peer below') : '–',
        t.seconds === null ? 'not reached' : t.seconds.toFixed(1),
        t.seconds !== null && t.seconds <= VERDICT_TARGET_S ? 'yes' : 'no',
        String(t.load),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    summary,
  ].join('\n');
}

/** Every generated block by name, from the sources. */
export function generatedBlocks(src: Sources): Record<string, string> {
  return {
    headlines: headlinesBlock(src),
    presets: presetsBlock(src),
    references: referencesBlock(src),
    workshop: workshopBlock(),
    warmstarts: warmStartsBlock(src),
    'room-warmstarts': roomWarmStartsBlock(src),
    'science-plan': ['```sh', planText(), '```'].join('\n'),
    verdicts: verdictsBlock(src),
  };
}

const BLOCK = /<!-- generated:([\w-]+) -->\n([\s\S]*?)<!-- \/generated:\1 -->/g;

/** The text with every generated block it holds filled from `blocks` (an unknown name throws). */
export function fillBlocks(text: string, blocks: Record<string, string>): string {
  return text.replace(BLOCK, (_, name: string) => {
    if (!(name in blocks)) throw new Error(`no generated block named ${name}`);
    return `<!-- generated:${name} -->\n${blocks[name]}\n<!-- /generated:${name} -->`;
  });
}

/** The names of the blocks of `text` that differ from what the sources give. */
export function staleBlocks(text: string, blocks: Record<string, string>): string[] {
  return [...text.matchAll(BLOCK)].filter(([, name, body]) => body !== `${blocks[name]}\n`).map(([, name]) => name);
}

// ---- figures in prose --------------------------------------------------------------------------

export interface Doc {
  path: string;
  text: string;
}

/** The text without generated blocks and fenced code (checked elsewhere, or not prose). */
function prose(text: string): string {
  return text.replace(BLOCK, '').replace(/```[\s\S]*?```/g, '');
}

/** Sentences, with the heading they sit under. Markdown table rows count as sentences. */
function sentences(text: string): { heading: string; sentence: string; para: number }[] {
  const out: { heading: string; sentence: string; para: number }[] = [];
  let heading = '';
  prose(text).split(/\n\s*\n/).forEach((para, i) => {
    const h = /^#+ (.*)$/m.exec(para);
    if (h) heading = h[1];
    const lines = para.startsWith('|') ? para.split('\n') : [para.replace(/\n/g, ' ')];
    for (const line of lines) for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z(*`"])/)) out.push({ heading, sentence: s, para: i });
  });
  return out;
}

/** The preset a sentence speaks of, nearest before `at`: a link's `preset=`, a `backticked` id, "the default", else its heading. */
function presetOf(sentence: string, at: number, heading: string): string | null {
  const before = sentence.slice(0, at);
  const link = /preset=([\w-]+)/.exec(sentence);
  if (link && PRESETS[link[1]]) return link[1];
  let found: string | null = null;
  let pos = -1;
  for (const id of presetIds()) {
    const i = before.lastIndexOf(`\`${id}\``);
    if (i > pos) [found, pos] = [id, i];
  }
  if (found) return found;
  if (/the default\b/i.test(before)) return DEFAULT_PRESET;
  const h = heading.split(/[\s(]/)[0];
  return PRESETS[h] ? h : null;
}

const TIME = String.raw`\d+(?:\.\d+)?(?:\s?[-–]\s?\d+(?:\.\d+)?)?\s?(?:s|min)\b`;

/** Times said to be "from its link" that disagree with the preset's measured time. */
function linkTimeProblems(doc: Doc): string[] {
  const problems: string[] = [];
  // A sentence that names no preset speaks of the one its paragraph named last.
  let named: { para: number; id: string } | null = null;
  for (const { heading, sentence, para } of sentences(doc.text)) {
    if (named && named.para !== para) named = null;
    const own = presetOf(sentence, sentence.length, '');
    if (!/from its link/.test(sentence)) {
      if (own) named = { para, id: own };
      continue;
    }
    const figures = [
      ...sentence.matchAll(new RegExp(`(${TIME}) from its link`, 'g')),
      // Up to the sentence's end: a dot only inside a number ("after 3.4 s, the whole run in 125 s").
      ...sentence.matchAll(new RegExp(`from its link(?:[^.]|\\.\\d)*?(?:whole run(?: in)?|: ) ?(${TIME})`, 'g')),
    ];
    for (const f of figures) {
      const id = presetOf(sentence, f.index!, heading) ?? named?.id ?? null;
      const said = seconds(f[1]);
      if (!id || !said) continue;
      // A browser named beside a measured time must be the one it was measured on.
      const browser = /Chromium (\d+)/.exec(sentence);
      const measured = PRESET_RUNTIMES[id]?.measuredOn;
      if (browser && measured && !measured.includes(`Chromium ${browser[1]}`)) {
        problems.push(`${doc.path}: "${f[1]}" from ${id}'s link on Chromium ${browser[1]}, but it was measured on ${measured}: "${sentence.trim().slice(0, 160)}"`);
      }
      const source = linkTime(id);
      const want = source && seconds(source.text);
      const slack = Math.max(said.slack, want?.slack ?? 0);
      if (!want || said.lo < want.lo - slack || said.hi > want.hi + slack) {
        problems.push(`${doc.path}: "${f[1]}" from ${id}'s link, but ${source ? `it measured ${source.text}` : 'no time from its link was measured'}: "${sentence.trim().slice(0, 160)}"`);
      }
    }
  }
  return problems;
}

/** "about X MB" of the shipped warm starts or reference runs, and the offline cache's size. */
function sizeProblems(doc: Doc, src: Sources): string[] {
  const problems: string[] = [];
  const ws = src.warmStarts.reduce((n, f) => n + f.bytes, 0);
  const refs = src.references.reduce((n, r) => n + r.bytes, 0);
  for (const { sentence } of sentences(doc.text)) {
    for (const m of sentence.matchAll(/about (\d+(?:\.\d+)?) MB/g)) {
      const before = sentence.slice(Math.max(0, m.index! - 60), m.index!);
      // "warm starts (about X MB", "warm start, about X MB", "the warm starts about X MB".
      const what = /(?:warm starts?|warmstarts\/`?),? \(?$/.test(before) ? (['warm starts', ws] as const)
        : /reference runs?,? \(?$/.test(before) ? (['reference runs', refs] as const) : null;
      if (what && m[1] !== MB(what[1])) problems.push(`${doc.path}: the shipped ${what[0]} are "about ${m[1]} MB", but ${MB(what[1])} MB: "${sentence.trim().slice(0, 160)}"`);
    }
    // The offline cache holds at least the warm starts, the reference runs and the wasm binaries.
    const cache = /precache (\d+) entries \((\d+(?:\.\d+)?) KiB\)/.exec(sentence);
    if (cache && Number(cache[2]) * 1024 < ws + refs + src.wasmBytes) {
      problems.push(`${doc.path}: a precache of ${cache[2]} KiB cannot hold ${MB(ws + refs + src.wasmBytes)} MB of warm starts, reference runs and wasm: "${sentence.trim().slice(0, 160)}"`);
    }
  }
  return problems;
}

/** "`preset` ... seed N" (one seed, not a range) names the seed the preset's link opens. */
function seedProblems(doc: Doc): string[] {
  const problems: string[] = [];
  for (const { heading, sentence } of sentences(doc.text)) {
    for (const m of sentence.matchAll(/(?:the default's|its link's|link opens) seed (\d+)(?![-\d,])|`([\w-]+)`, seed (\d+)(?![-\d,])/g)) {
      const id = m[2] ?? presetOf(sentence, m.index!, heading);
      const seed = Number(m[1] ?? m[3]);
      if (id && PRESETS[id] && PRESETS[id].spec.seed !== seed) {
        problems.push(`${doc.path}: ${id}'s link opens seed ${PRESETS[id].spec.seed}, not ${seed}: "${sentence.trim().slice(0, 160)}"`);
      }
    }
    // "the default link's 80 steps", "`peers-learn`: two small models, 120 RL steps".
    for (const m of sentence.matchAll(/(?:`([\w-]+)`|the default\b)[^.;`]{0,60}?(?<!at most )\b(\d+) (?:RL )?steps/g)) {
      const id = m[1] ?? DEFAULT_PRESET;
      if (!PRESETS[id]) continue;
      if (Number(m[2]) !== PRESETS[id].spec.steps) problems.push(`${doc.path}: ${id} has ${PRESETS[id].spec.steps} RL steps, not ${m[2]}: "${sentence.trim().slice(0, 160)}"`);
    }
    const most = Math.max(...Object.values(PRESETS).map((p) => p.spec.steps));
    for (const m of sentence.matchAll(/at most (\d+) RL steps/g)) {
      if (Number(m[1]) !== most) problems.push(`${doc.path}: the longest preset has ${most} RL steps, not ${m[1]}: "${sentence.trim().slice(0, 160)}"`);
    }
  }
  return problems;
}

/** The format table of docs/RELIABILITY.md ("Saved formats") against the code's versions and migrations. */
export interface FormatSource {
  file: string;
  version: number;
  /** The versions a migration starts from (empty: none). */
  migratesFrom: number[];
}

function formatProblems(doc: Doc, formats: readonly FormatSource[]): string[] {
  const problems: string[] = [];
  for (const f of formats) {
    const row = doc.text.split('\n').find((l) => l.startsWith('|') && l.includes(`\`${f.file}\``));
    if (!row) {
      problems.push(`${doc.path}: no row for ${f.file} in the format table`);
      continue;
    }
    const cells = row.split('|').map((c) => c.trim());
    const [version, older] = [cells[3], cells[5]];
    if (Number(version) !== f.version) problems.push(`${doc.path}: ${f.file} writes version ${f.version}, the table says ${version}`);
    const none = /none yet/.test(older);
    if (none !== (f.migratesFrom.length === 0) || (!none && /migrat/.test(older) && !f.migratesFrom.every((v) => older.includes(`${v} migrated to ${v + 1}`)))) {
      problems.push(`${doc.path}: ${f.file} migrates from [${f.migratesFrom.join(', ')}], the table says "${older}"`);
    }
  }
  return problems;
}

/** Every doc in docs/ is reachable from the README by following the doc names each one mentions. */
function reachProblems(docs: readonly Doc[]): string[] {
  const byName = new Map(docs.map((d) => [d.path, d]));
  const seen = new Set(['README.md']);
  const queue = ['README.md'];
  while (queue.length) {
    const doc = byName.get(queue.shift()!);
    for (const [, name] of doc?.text.matchAll(/\b(?:docs\/)?([A-Z][\w-]*\.md)\b/g) ?? []) {
      const path = name === 'README.md' ? name : `docs/${name}`;
      if (byName.has(path) && !seen.has(path)) {
        seen.add(path);
        queue.push(path);
      }
    }
  }
  return docs.filter((d) => !seen.has(d.path)).map((d) => `${d.path}: no doc reachable from README.md names it`);
}

/** Where a claim's headline exists, the front door does not quote its tuning seeds' number instead. */
function tuningQuoteProblems(doc: Doc): string[] {
  return sentences(doc.text)
    .filter(({ sentence }) => /tuning seeds/.test(sentence) && /[+−-]0\.\d\d/.test(sentence))
    .map(({ sentence }) => `${doc.path}: quotes a tuning-seed figure where the headline is the confirmation seeds': "${sentence.trim().slice(0, 160)}"`);
}

/**
 * presetRuntimes.ts against the page benchmark: each preset's range holds the last timing of its link
 * (`?v=1&preset=ID`, or the bare link for the default), and names that timing's Chromium major version.
 */
export function runtimeProblems(runtimes: typeof PRESET_RUNTIMES, timings: readonly PageTimingRow[]): string[] {
  const problems: string[] = [];
  for (const [id, r] of Object.entries(runtimes)) {
    const row = timings.find((t) => t.query === `?v=1&preset=${id}`) ?? (id === DEFAULT_PRESET ? timings.find((t) => t.query === '') : undefined);
    const range = seconds(r.range);
    if (!row || row.timedOut || !range) {
      problems.push(`presetRuntimes.ts: ${id} says ${r.range}, but bench/results/page.json has no finished timing of ?v=1&preset=${id} (npm run bench -- --page --page-query '?v=1&preset=${id}')`);
      continue;
    }
    if (row.doneS < range.lo - range.slack || row.doneS > range.hi + range.slack) {
      problems.push(`presetRuntimes.ts: ${id} says ${r.range}, but its link last measured ${row.doneS.toFixed(1)} s (${row.browser}, ${row.date})`);
    }
    const major = /Chromium (\d+)/.exec(row.browser)?.[1];
    if (!major || !r.measuredOn.includes(`Chromium ${major}`)) {
      problems.push(`presetRuntimes.ts: ${id} names "${r.measuredOn}", but its link was last measured on ${row.browser}`);
    }
  }
  return problems;
}

/** "+0.27 [−0.03, +0.56]" or "+0.27 [95% CI −0.03, +0.56]" as numbers. */
function interval(text: string): [number, number, number] | null {
  const n = (x: string) => Number(x.replace('−', '-'));
  const m = /([+−-]\d+\.\d+) \[(?:95% CI )?([+−-]\d+\.\d+), ([+−-]\d+\.\d+)\]/.exec(text);
  return m ? [n(m[1]), n(m[2]), n(m[3])] : null;
}

/**
 * RESULTS' overlap verdicts against their sources: the summary's confirmation cells recomputed from
 * the panel's reference points (3 decimals, so a bound may move by 0.01; verdicts exactly), and both
 * blocks' cells against the lines cli/science/science-overlap.ts printed in the overlap section.
 */
export function overlapProblems(results: string, points: readonly OverlapLevelPoint[]): string[] {
  const problems: string[] = [];
  const rows = summaryRows(results).filter((r) => r.preset === 'overlap');
  const ids = ['slope', 'ends'] as const;
  const printed = { slope: 'P1 gain lost per +1 kappa', ends: 'P2 gain next to the least minus the most' };
  const readings = readingsFromPoints(points);
  const family = ids.map((id) => overlapClaim(id, readings));
  const holm = holmVerdicts(family.map((c) => c.stats));
  const section = /### overlap[^\n]*\n([\s\S]*?)\n### /.exec(results)?.[1] ?? '';
  const fences = [...section.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
  // The printed reading of a block: the fence whose primary lines count its seeds.
  const printedBlock = (n: number) => fences.find((f) => f.includes('primary (Holm over 2)') && f.includes(`of ${n} seeds;`)) ?? '';
  ids.forEach((id, i) => {
    const row = rows.find((r) => r.claim.startsWith(`(${id})`));
    if (!row) {
      problems.push(`docs/RESULTS.md: the summary has no overlap row (${id})`);
      return;
    }
    const tuningCell = /^\| \([^)]+\)[^|]*\| overlap \| ([^|]*) \|/.exec(results.split('\n').find((l) => l.startsWith(`| (${id})`) && l.includes('| overlap |')) ?? '')?.[1] ?? '';
    const c = family[i];
    const said = interval(row.confirmation);
    const want = [c.stats.mean, c.stats.lo, c.stats.hi];
    if (!said || said.some((x, k) => Math.abs(x - want[k]) > 0.0101)) {
      problems.push(`docs/RESULTS.md: overlap (${id}) on the confirmation seeds says ${row.confirmation}, the reference points give ${want.map((x) => x.toFixed(2)).join(', ')}`);
    }
    const verdicts = `${c.verdict.toUpperCase()}; Holm ${holm[i].verdict.toUpperCase()} (seeds ${seedRange(readings.map((r) => r.seed))})`;
    if (!row.confirmation.endsWith(verdicts)) problems.push(`docs/RESULTS.md: overlap (${id}) on the confirmation seeds says "${row.confirmation}", the reference points give "${verdicts}"`);
    if (row.headline !== `**${holm[i].verdict.toUpperCase()}**`) problems.push(`docs/RESULTS.md: overlap (${id})'s headline is ${row.headline}, its confirmation Holm verdict ${holm[i].verdict.toUpperCase()}`);
    for (const [cell, seeds, n] of [[tuningCell, '1-4', 4], [row.confirmation, '201-212', readings.length]] as const) {
      const line = printedBlock(n).split('\n').find((l) => l.includes(printed[id]));
      const m = line && /: (.*); p [\d.<\s]+, Holm p [\d.<\s]+: ([A-Z ]+)$/.exec(line);
      const ci = m && interval(m[1]);
      const got = interval(cell);
      if (!m || !ci || !got || got.some((x, k) => x !== ci[k]) || !cell.includes(`Holm ${m[2]} (`)) {
        problems.push(`docs/RESULTS.md: overlap (${id}) on seeds ${seeds} says "${cell}", cli/science/science-overlap.ts printed "${line?.trim() ?? 'nothing'}"`);
      }
    }
  });
  return problems;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
const count = (word: string) => NUMBER_WORDS[word.toLowerCase()] ?? (/^\d+(?:\.\d+)?$/.test(word) ? Number(word) : NaN);

/** Times a text states in words or figures: "About 45 seconds", "about a minute", "2 minutes", "16-23 s". */
export function statedTimes(text: string): { said: string; lo: number; hi: number }[] {
  const out: { said: string; lo: number; hi: number }[] = [];
  const re = /\b(about |around |roughly )?(?:(\d+(?:\.\d+)?)(?:\s?[-–]\s?(\d+(?:\.\d+)?))? ?(seconds?|minutes?|s|min)|(a|an|one|two|three|four|five|six|seven|eight|nine|ten) (seconds?|minutes?))\b(?! per seed)/gi;
  for (const x of text.matchAll(re)) {
    const m = [x[0], x[1], x[2] ?? x[5], x[3], x[4] ?? x[6]];
    const unit = /^m/i.test(m[4]) ? 60 : 1;
    const lo = count(m[2]) * unit;
    const hi = (m[3] ? Number(m[3]) : count(m[2])) * unit;
    if (!Number.isFinite(lo)) continue;
    // "about" widens a figure by 15%; a bare figure by half its last digit.
    const slack = m[1] ? 0.15 : (seconds(`${m[2]}${m[3] ? `-${m[3]}` : ''} ${unit === 60 ? 'min' : 's'}`)?.slack ?? 0.5) / Math.max(lo, 1);
    out.push({ said: m[0], lo: lo * (1 - slack), hi: hi * (1 + slack) });
  }
  return out;
}

const FAMILY_WORDS: Record<string, string> = { transformer: 'transformer', mlp: 'mlp', gru: 'gru' };

/**
 * The workshop's texts against their presets: a time it states holds the preset's measured time from
 * its link (presetRuntimes.ts), and the models it names ("One transformer A", "Two small models
 * (MLPs)") are the preset's members.
 */
export function workshopProblems(steps: readonly WorkshopStep[]): string[] {
  const problems: string[] = [];
  steps.forEach((step, i) => {
    const preset = PRESETS[step.presetId];
    const where = `workshop step ${i + 1} (${step.presetId})`;
    for (const text of [step.setup, step.question, step.talkingPoint]) {
      for (const t of statedTimes(text)) {
        const want = linkTime(step.presetId);
        const range = want && seconds(want.text);
        if (!range) problems.push(`${where}: says "${t.said}", but no time from its link was measured`);
        else if (t.hi < range.lo - range.slack || t.lo > range.hi + range.slack) problems.push(`${where}: says "${t.said}", but its link measured ${want.text}`);
      }
      const families = new Map<string, number>();
      for (const m of preset.spec.members) families.set(m.family, (families.get(m.family) ?? 0) + 1);
      for (const m of text.matchAll(/\b(one|two|three|four|five|six|seven|\d+) (?:small |tiny |equal )*(?:models \()?(transformers?|MLPs?|GRUs?)\b\)?( [A-Z]\b)?/gi)) {
        const family = FAMILY_WORDS[m[2].toLowerCase().replace(/s$/, '')];
        const n = count(m[1]);
        const member = m[3] ? preset.spec.members.find((x) => x.id === m[3].trim()) : undefined;
        if ((families.get(family) ?? 0) < n || (member && member.family !== family)) {
          problems.push(`${where}: says "${m[0]}", but its members are ${models(preset)}${member ? ` and ${member.id} is ${member.family === 'mlp' ? 'an MLP' : `a ${member.family}`}` : ''}`);
        }
      }
    }
  });
  return problems;
}

/** "a sequence of six presets", "the workshop's seven steps": the count the workshop has. */
function workshopCountProblems(doc: Doc): string[] {
  const problems: string[] = [];
  const all = sentences(doc.text);
  // A paragraph about the workshop: its sentences speak of it even where they do not name it.
  const about = new Set(all.filter(({ sentence }) => /workshop|presenter/i.test(sentence)).map(({ para }) => para));
  for (const { sentence, para } of all) {
    if (!about.has(para)) continue;
    for (const m of sentence.matchAll(/\b(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(presets|steps|experiments)\b/gi)) {
      if (m[2] === 'steps' && /RL steps/.test(sentence.slice(m.index!, m.index! + m[0].length + 3))) continue;
      if (count(m[1]) !== WORKSHOP.length) problems.push(`${doc.path}: "${m[0]}", but the workshop has ${WORKSHOP.length}: "${sentence.trim().slice(0, 160)}"`);
    }
    // The workshop card's "what 8 seeds measured": one count for every step only where every step
    // rests on that many.
    const counts = new Set(WORKSHOP.map((s) => seedsMeasured(s)));
    if (!/\bcard\b|workshop/i.test(sentence)) continue;
    for (const m of sentence.matchAll(/\bwhat (\w+) seeds\s+(?:measured|showed)/gi)) {
      if (counts.size !== 1 || !counts.has(`${count(m[1])} seeds`)) problems.push(`${doc.path}: "${m[0]}", but the workshop's steps rest on ${[...counts].join(' or ')}: "${sentence.trim().slice(0, 160)}"`);
    }
  }
  return problems;
}

/**
 * BENCHMARKS' page table against bench/results/page.json: one row per timing, the same end of the
 * run; no row that the data no longer holds (a superseded timing goes from both).
 */
export function pageTableProblems(doc: Doc, timings: readonly PageTimingRow[]): string[] {
  const section = /<!-- page -->\n([\s\S]*?)<!-- \/page -->/.exec(doc.text)?.[1];
  if (!section) return [`${doc.path}: no page section (<!-- page -->)`];
  const rows = section.split('\n').filter((l) => l.startsWith('| `/'));
  const problems: string[] = [];
  for (const row of rows) {
    const cells = row.split('|').map((c) => c.trim());
    const query = cells[1].replace(/^`\/|`$/g, '');
    const t = timings.find((x) => x.query === query);
    if (!t) problems.push(`${doc.path}: the page table times \`/${query}\`, but bench/results/page.json has no such timing`);
    else if (cells[6].split(' ')[0] !== t.doneS.toFixed(1) || cells[2] !== t.browser) problems.push(`${doc.path}: \`/${query}\` ends at ${cells[6]} on ${cells[2]} in the page table, ${t.doneS.toFixed(1)} s on ${t.browser} in bench/results/page.json`);
  }
  if (rows.length !== timings.length) problems.push(`${doc.path}: the page table has ${rows.length} rows, bench/results/page.json ${timings.length} timings`);
  return problems;
}

/** The pair presets: the claims (a) to (d) are read on each. */
const PAIR_PRESETS = ['collapse', 'peers-learn', 'peers-teach', 'length'];
/** Words that name a claim in prose, and the claim. */
const CLAIM_WORDS: [RegExp, string][] = [
  [/compute-matched control/i, '(d)'],
  [/oracle (?:is|as) the ceiling|the oracle leads|oracle stays ahead/i, '(oracle)'],
  [/peer arm ends above the self arm/i, '(b)'],
];

/**
 * Verdicts in prose against the headlines: "X holds / is shown in every pair preset" only where
 * X's headline is SHOWN in each of them; and the README's "In short" carries the overlap verdict
 * (its title, its verdict, its confirmation interval) as RESULTS' summary gives it.
 */
export function verdictProblems(docs: readonly Doc[]): string[] {
  const results = docs.find((d) => d.path === 'docs/RESULTS.md');
  if (!results) return [];
  const rows = summaryRows(results.text);
  const problems: string[] = [];
  for (const d of docs) {
    for (const { sentence } of sentences(d.text)) {
      if (!/(?:in|for) every pair preset/.test(sentence)) continue;
      for (const [words, claim] of CLAIM_WORDS) {
        if (!words.test(sentence)) continue;
        const not = PAIR_PRESETS.filter((p) => rows.find((r) => r.preset === p && r.claim.startsWith(claim))?.headline !== '**SHOWN**');
        if (not.length) problems.push(`${d.path}: says ${claim} holds in every pair preset, but its headline is not SHOWN in ${not.join(', ')}: "${sentence.trim().slice(0, 160)}"`);
      }
    }
  }
  const readme = docs.find((d) => d.path === 'README.md');
  const inShort = readme?.text.split(/\n\s*\n/).find((p) => p.startsWith('In short')) ?? '';
  for (const r of rows.filter((x) => x.preset === 'overlap' && x.claim.startsWith('(ends)'))) {
    const title = r.claim.replace(/^\([^)]*\) /, '');
    const ci = /^(\S+ \[\S+, \S+\])/.exec(r.confirmation)?.[1] ?? '?';
    const said = inShort.replace(/\s+/g, ' ');
    const at = said.toLowerCase().indexOf(`**${title.toLowerCase()}**`);
    const shown = r.headline === '**SHOWN**';
    const end = /\.(?=\s|$)/.exec(said.slice(at + title.length + 4));
    const sentence = at < 0 ? '' : said.slice(at, end ? at + title.length + 4 + end.index + 1 : undefined);
    if (at < 0 || !sentence.includes(ci) || /not shown/.test(sentence.split(ci)[0]) === shown) {
      problems.push(`README.md: "In short" must say **${title}** with its headline (${r.headline.replace(/\*/g, '')}, ${ci} on \`overlap\`'s confirmation seeds)`);
    }
  }
  return problems;
}

/** A page time (after the page opens, a first RL step) quoted with a browser the page benchmark did not time. */
function pageBrowserProblems(doc: Doc, timings: readonly PageTimingRow[]): string[] {
  const majors = new Set(timings.map((t) => /Chromium (\d+)/.exec(t.browser)?.[1]));
  return sentences(doc.text)
    .filter(({ sentence }) => /after (?:the page|its link) opens|first RL step (?:after|shown|is shown)/.test(sentence))
    .flatMap(({ sentence }) => [...sentence.matchAll(/Chromium (\d+)/g)].filter((m) => !majors.has(m[1])).map((m) => `${doc.path}: quotes a page time on Chromium ${m[1]}, but the page benchmark's timings are ${[...majors].map((x) => `Chromium ${x}`).join(', ')}: "${sentence.trim().slice(0, 160)}"`));
}

/**
 * "8 seeds per block": a count of seeds per block that the plan's confirmation blocks do not all
 * have is a problem unless the sentence names the other sizes too ("12 for `overlap`").
 */
/** Sentences on the partner wait ("waits 20 seconds", "`partnerWaitMs` (20 s") that give another default than the server's. */
function partnerWaitProblems(doc: Doc): string[] {
  const problems: string[] = [];
  for (const { sentence } of sentences(doc.text)) {
    if (!/partner/i.test(sentence) || !/wait/i.test(sentence)) continue;
    for (const m of sentence.matchAll(/(?:partnerWaitMs`? \(|\bwaits |within |default(?:s)? (?:of |to )?)(\d+)(?: s\b| seconds\b)/g)) {
      if (Number(m[1]) !== DEFAULT_PARTNER_WAIT_S) problems.push(`${doc.path}: "${m[0]}", but a seat waits ${DEFAULT_PARTNER_WAIT_S} s for a partner by default (src/room/protocol.ts DEFAULT_PARTNER_WAIT_S): "${sentence.trim().slice(0, 160)}"`);
    }
  }
  return problems;
}

function blockSizeProblems(doc: Doc): string[] {
  const sizes = new Set(PLAN.map((e) => e.confirmation.length));
  const problems: string[] = [];
  for (const { sentence } of sentences(doc.text)) {
    for (const m of sentence.matchAll(/\b(\w+) seeds per block\b/gi)) {
      const said = count(m[1]);
      const unnamed = [...sizes].filter((n) => n !== said && !new RegExp(`\\b${n}\\b`).test(sentence));
      if (!sizes.has(said) || unnamed.length) problems.push(`${doc.path}: "${m[0]}", but the plan's confirmation blocks hold ${[...sizes].join(' or ')} seeds: "${sentence.trim().slice(0, 160)}"`);
    }
  }
  return problems;
}

// ---- intervals and run times in prose -----------------------------------------------------------

const INTERVAL = /[+−-]?\d+\.\d+ \[(?:95% CI )?[+−-]?\d+\.\d+, [+−-]?\d+\.\d+\]/g;
const negated = (interval: string) => {
  const flip = (x: string) => (x.startsWith('−') || x.startsWith('-') ? `+${x.slice(1)}` : x.startsWith('+') ? `−${x.slice(1)}` : x);
  const m = /^([+−-]?[\d.]+) \[(95% CI )?([+−-]?[\d.]+), ([+−-]?[\d.]+)\]$/.exec(interval)!;
  return `${flip(m[1])} [${m[2] ?? ''}${flip(m[4])}, ${flip(m[3])}]`;
};

/**
 * Every mean with its interval that a doc other than RESULTS (and its notebook, whose figures
 * live only there) or the page quotes is one RESULTS prints, where `npm run science --check` keeps
 * it equal to the result files: a quoted interval that RESULTS does not hold has drifted. A
 * change the page prints as end − start where RESULTS prints start − end may be negated
 * (`negatable`, the workshop's rows marked negatedInResults).
 */
export function intervalProblems(results: string, texts: readonly { where: string; text: string; negatable?: boolean }[]): string[] {
  const problems: string[] = [];
  for (const t of texts) {
    for (const m of t.text.matchAll(INTERVAL)) {
      const said = m[0].replace(/-/g, '−');
      const held = results.replace(/(?<=[\s[(])-(?=\d)/g, '−');
      if (held.includes(said) || (t.negatable && held.includes(negated(said)))) continue;
      problems.push(`${t.where}: quotes ${m[0]}, an interval docs/RESULTS.md does not print`);
    }
  }
  return problems;
}

/** The page's strings that quote intervals: the presets' paragraphs and the workshop's talking points and tables. */
export function pageTexts(): { where: string; text: string; negatable?: boolean }[] {
  return [
    ...Object.values(PRESETS).map((p) => ({ where: `preset ${p.id}'s paragraph`, text: p.explanation })),
    ...WORKSHOP.flatMap((s) => [
      { where: `workshop ${s.presetId}'s talking point`, text: s.talkingPoint },
      ...s.numbers.map((r) => ({ where: `workshop ${s.presetId}: ${r.what}`, text: `${r.tuning ?? ''} ${r.fresh ?? ''}`, negatable: r.negatedInResults })),
    ]),
  ];
}

/**
 * RESULTS' "Run time: X per seed" in a preset's section is the preset's own measured time (its
 * `runtime`, which the preset card shows): one figure, said the same in both places.
 */
export function runTimeProblems(results: string, presets: Record<string, Pick<Preset, 'runtime'>>): string[] {
  const problems: string[] = [];
  for (const section of results.split(/\n(?=### )/)) {
    const id = /^### `?([\w-]+)/.exec(section)?.[1];
    if (!id || !(id in presets)) continue;
    const said = /Run\s+time:\s+([\d.]+(?:-[\d.]+)?\s+(?:s|min)) per\s+seed/.exec(section)?.[1].replace(/\s+/g, ' ');
    if (!said) continue;
    const own = /([\d.]+(?:-[\d.]+)? (?:s|min)) per seed/.exec(presets[id].runtime)?.[1];
    if (own !== said) problems.push(`docs/RESULTS.md: ${id}'s run time is "${said} per seed", its preset's runtime says "${own ?? 'none'}" (src/core/experiment/presets*.ts)`);
  }
  return problems;
}

/**
 * RESULTS' hand-written summary (the table under "## Summary", before the generated one) quotes
 * only numbers the science blocks print: every signed difference in it is one of theirs, where
 * `npm run science --check` holds them to the result files. A number typed by hand and never
 * printed has no source.
 */
export function handSummaryProblems(results: string): string[] {
  const start = results.indexOf('| question | verdict (tuning seeds 1-8)');
  if (start < 0) return ['docs/RESULTS.md: no hand-written summary table under "## Summary"'];
  const table = results.slice(start, results.indexOf('\n\n', start));
  const minus = (x: string) => x.replace(/(?<=[\s[(])-(?=\d)/g, '−');
  const blocks = [...results.matchAll(/<!-- (science:[^ ]+) -->([\s\S]*?)<!-- \/\1 -->/g)].map((m) => minus(m[2])).join('\n');
  const printed = new Set([...blocks.matchAll(/[+−]\d+\.\d\d/g)].map((m) => m[0]));
  const problems: string[] = [];
  for (const row of table.split('\n').slice(2)) {
    for (const m of minus(row).matchAll(/(?<=[\s[(])[+−]\d+\.\d\d/g)) {
      if (!printed.has(m[0])) problems.push(`docs/RESULTS.md: the summary's row "${row.split('|')[1].trim()}" quotes ${m[0]}, which no science block prints`);
    }
  }
  return problems;
}

/**
 * The default preset's story in words: its paragraph on the page and the students' page say how
 * much the self arm fell, the peer arm rose and the oracle led on its confirmation seeds, each the
 * mean the summary prints for claims (a), (learns) and (oracle) of that preset.
 */
export function defaultStoryProblems(results: string, texts: readonly { where: string; text: string }[]): string[] {
  const rows = summaryRows(results).filter((r) => r.preset === DEFAULT_PRESET);
  const mean = (claim: string) => /^([+−]\d\.\d\d)/.exec(rows.find((r) => r.claim.startsWith(`(${claim})`))?.confirmation ?? '')?.[1]?.slice(1);
  const want = [
    { said: /\bfell (?:by )?(\d\.\d\d)/, claim: 'a', what: "the self arm's fall" },
    { said: /\brose (?:by )?(\d\.\d\d)/, claim: 'learns', what: "the peer arm's rise" },
    { said: /\b(\d\.\d\d) above the peer arm/, claim: 'oracle', what: "the oracle's lead" },
  ];
  const problems: string[] = [];
  for (const t of texts) {
    for (const w of want) {
      const m = w.said.exec(t.text);
      if (m && m[1] !== mean(w.claim)) problems.push(`${t.where}: says ${w.what} is ${m[1]}, the summary's ${DEFAULT_PRESET} confirmation mean is ${mean(w.claim) ?? 'missing'}`);
    }
  }
  return problems;
}

/** Every figure in prose that disagrees with its source, one line each (empty: none). */
export function figureProblems(docs: readonly Doc[], src: Sources, formats: readonly FormatSource[]): string[] {
  const front = new Set(['README.md', 'docs/LAB.md', 'docs/CLASSROOM.md', 'docs/CLI.md', 'docs/STUDENTS.md', 'docs/TEACHERS.md']);
  const problems = [
    ...reachProblems(docs),
    ...docs.flatMap((d) => [...linkTimeProblems(d), ...sizeProblems(d, src), ...blockSizeProblems(d), ...partnerWaitProblems(d)]),
    ...docs.filter((d) => front.has(d.path)).flatMap((d) => [...seedProblems(d), ...tuningQuoteProblems(d), ...workshopCountProblems(d)]),
    ...workshopProblems(WORKSHOP),
    ...verdictProblems(docs),
    ...docs.filter((d) => d.path !== 'docs/BENCHMARKS.md').flatMap((d) => pageBrowserProblems(d, src.pageTimings)),
  ];
  const benchmarks = docs.find((d) => d.path === 'docs/BENCHMARKS.md');
  if (benchmarks) problems.push(...pageTableProblems(benchmarks, src.pageTimings));
  const reliability = docs.find((d) => d.path === 'docs/RELIABILITY.md');
  if (reliability) problems.push(...formatProblems(reliability, formats));
  const results = docs.find((d) => d.path === 'docs/RESULTS.md');
  if (results) problems.push(...overlapProblems(results.text, src.overlapPoints));
  if (results) {
    const others = docs.filter((d) => !['docs/RESULTS.md', 'docs/RESULTS-NOTEBOOK.md'].includes(d.path)).map((d) => ({ where: d.path, text: d.text }));
    problems.push(...intervalProblems(results.text, [...others, ...pageTexts()]), ...runTimeProblems(results.text, PRESETS), ...handSummaryProblems(results.text));
    const students = docs.find((d) => d.path === 'docs/STUDENTS.md');
    problems.push(...defaultStoryProblems(results.text, [{ where: `preset ${DEFAULT_PRESET}'s paragraph`, text: PRESETS[DEFAULT_PRESET].explanation }, ...(students ? [{ where: students.path, text: students.text }] : [])]));
  }
  if (results && summaryRows(results.text).every((r) => !/not confirmed/.test(r.headline)) && /NOT RUN YET/.test(results.text)) {
    problems.push('docs/RESULTS.md: says a block is NOT RUN YET, but every headline of its summary is confirmed');
  }
  const readme = docs.find((d) => d.path === 'README.md');
  const node = /Node (\d+) or newer/.exec(readme?.text ?? '');
  if (!src.nodeEngine || !node || src.nodeEngine !== `>=${node[1]}`) {
    problems.push(`README.md says "Node ${node?.[1] ?? '?'} or newer", package.json's engines.node is ${src.nodeEngine ?? 'missing'}`);
  }
  return problems;
}

/** README.md and every docs/*.md of the checkout. */
export function readDocs(root: string): Doc[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()].map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}
