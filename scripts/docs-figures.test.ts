/**
 * The docs quote no figure their sources contradict (scripts/docs-figures.ts): every generated
 * block of README.md and docs/*.md is what the sources give now, and every checked figure in prose
 * (a time from a preset's link, a shipped file's size, a link's seed, a saved format's version)
 * agrees with its source. A retuned preset, a remeasured runtime, a rerun science block or a
 * remade warm start fails here until `npx tsx scripts/docs.ts --write` (and the prose) follow it.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cannotTellCause, verdictsBlock, defaultStoryProblems, figureProblems, fillBlocks, generatedBlocks, handSummaryProblems, intervalProblems, linkTime, overlapProblems, pageTexts, runTimeProblems, pageTableProblems, readDocs, readSources, runtimeProblems, seconds, statedTimes, staleBlocks, summaryRows, workshopProblems, type Doc } from './docs-figures';
import { WORKSHOP } from '../src/app/workshop/sequence';
import { PRESET_RUNTIMES } from '../src/app/controls/presetRuntimes';
import { FORMATS } from './docs-formats';
import { PRESETS } from '../src/core/experiment/presets';
import { GPU_JSON, gpuSectionProblems, type GpuBenchFile } from '../cli/bench/bench-gpu-lib';
import { readFileSync } from 'node:fs';
import type { VerdictTiming } from '../cli/bench/bench-verdict';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const src = readSources(ROOT);
const docs = readDocs(ROOT);
const blocks = generatedBlocks(src);
const doc = (path: string) => docs.find((d) => d.path === path)!;
const gpuFile = JSON.parse(readFileSync(resolve(ROOT, GPU_JSON), 'utf8')) as GpuBenchFile;

describe('the docs against their sources', () => {
  it('every generated block is what the sources give (npx tsx scripts/docs.ts --write)', () => {
    const stale = docs.flatMap((d) => staleBlocks(d.text, blocks).map((name) => `${d.path}: ${name}`));
    expect(stale).toEqual([]);
  });

  it('the README holds the headline and preset tables, and the docs the rest', () => {
    const where = (name: string) => docs.filter((d) => d.text.includes(`<!-- generated:${name} -->`)).map((d) => d.path);
    expect(where('headlines')).toEqual(['README.md']);
    expect(where('presets')).toEqual(['README.md']);
    expect(where('references')).toEqual(['docs/LAB.md']);
    expect(where('workshop')).toEqual(['docs/CLASSROOM.md']);
    expect(where('warmstarts')).toEqual(['docs/WARMSTARTS.md']);
    // The overlap verdict's own reading is named where a reader looks for commands.
    for (const path of ['README.md', 'docs/CLI.md', 'docs/RESULTS.md']) expect(doc(path).text, path).toContain('cli/science/science-overlap.ts');
    // The way to put the lab online is named on the front door and told in LAB.
    expect(doc('README.md').text).toContain('npm run build -- --base /cohort-lab/');
    expect(doc('docs/LAB.md').text).toContain('## Put the lab online');
  });

  it('every checked figure in prose agrees with its source', () => {
    expect(figureProblems(docs, src, FORMATS)).toEqual([]);
  });

  it("BENCHMARKS' gpu section is what bench/results/gpu.json makes (npx tsx cli/bench/bench-gpu-lib.ts --write)", () => {
    expect(gpuSectionProblems('docs/BENCHMARKS.md', doc('docs/BENCHMARKS.md').text, gpuFile)).toEqual([]);
  });

  it("every preset's time from its link holds the page benchmark's last timing of that link (bench/results/page.json)", () => {
    expect(runtimeProblems(PRESET_RUNTIMES, src.pageTimings)).toEqual([]);
  });

  it('the README defines its terms where they first appear: each first use is the bold one of its definition', () => {
    const readme = doc('README.md').text.replace(/^# .*\n/, '').replace(/Cohort Lab/g, 'the lab');
    for (const term of ['majority vote', 'peer', 'cohort', 'oracle', 'arm', 'GRPO', 'RL', 'held-out', 'pass@1', 'seed', 'shown', 'not shown', 'contradicted']) {
      const first = readme.search(new RegExp(`(?<![\\w-])${term.replace(/[@-]/g, '\\$&')}\\b`, term === 'RL' ? '' : 'i'));
      expect(readme.slice(Math.max(0, first - 2), first), `${term} first appears outside its definition`).toBe('**');
    }
  });

  it('the README is a front door: at most 250 lines, and every reader\'s first command on its first screen', () => {
    const readme = doc('README.md').text.split('\n');
    expect(readme.length).toBeLessThanOrEqual(250);
    const firstScreen = readme.slice(0, 45).join('\n');
    for (const command of ['npm install && npm start', 'npm run build && npm run room', 'npm run experiment --', 'npm test']) {
      expect(firstScreen, command).toContain(command);
    }
  });
});

describe('the checks can fail', () => {
  const planted = (path: string, from: string, to: string): Doc[] =>
    docs.map((d) => {
      if (d.path !== path) return d;
      expect(d.text, `${path} holds "${from}"`).toContain(from);
      return { ...d, text: d.text.replace(from, to) };
    });

  it('an interval quoted outside RESULTS that RESULTS does not print, in a doc or on the page', () => {
    const results = doc('docs/RESULTS.md').text;
    expect(intervalProblems(results, [{ where: 'docs/STUDENTS.md', text: 'rose +0.16 [+0.09, +0.24] over 8 seeds' }])).toEqual([]);
    expect(intervalProblems(results, [{ where: 'docs/STUDENTS.md', text: 'rose +0.16 [+0.08, +0.24] over 8 seeds' }])).toEqual([
      'docs/STUDENTS.md: quotes +0.16 [+0.08, +0.24], an interval docs/RESULTS.md does not print',
    ]);
    // The workshop prints a fall as −0.15 where RESULTS prints claim (a) as +0.15: allowed only on a row marked so.
    expect(intervalProblems(results, [{ where: 'workshop', text: '−0.15 [−0.19, −0.11]', negatable: true }])).toEqual([]);
    expect(intervalProblems(results, [{ where: 'workshop', text: '−0.15 [−0.19, −0.11]' }])).toHaveLength(1);
    expect(intervalProblems(results, pageTexts())).toEqual([]);
  });

  it("a number in RESULTS' hand-written summary that no science block prints", () => {
    const results = doc('docs/RESULTS.md').text;
    expect(handSummaryProblems(results)).toEqual([]);
    const row = '| compute-matched control: peer pair pooled vs two self-trained pooled |';
    const planted = results.replace(/(\| compute-matched control[^\n]*\| )\+0\.33, /, '$1+0.93, ');
    expect(planted).not.toBe(results);
    expect(handSummaryProblems(planted)).toEqual([`docs/RESULTS.md: the summary's row "${row.slice(1, -1).trim()}" quotes +0.93, which no science block prints`]);
  });

  it("the default's story on the page and for students, with a number its summary does not print", () => {
    const results = doc('docs/RESULTS.md').text;
    const students = doc('docs/STUDENTS.md').text;
    expect(defaultStoryProblems(results, [{ where: 'docs/STUDENTS.md', text: students }])).toEqual([]);
    expect(students).toMatch(/fell 0\.\d\d/);
    const planted = students.replace(/fell 0\.\d\d/, 'fell 0.17');
    expect(defaultStoryProblems(results, [{ where: 'docs/STUDENTS.md', text: planted }])).toEqual([
      "docs/STUDENTS.md: says the self arm's fall is 0.17, the summary's peers-learn confirmation mean is 0.15",
    ]);
  });

  it("the teachers' page counting the workshop's experiments wrong", () => {
    expect(figureProblems(docs, src, FORMATS)).toEqual([]);
    const problems = figureProblems(planted('docs/TEACHERS.md', 'It walks through seven experiments.', 'It walks through six experiments.'), src, FORMATS);
    expect(problems.join('\n')).toMatch(/docs\/TEACHERS.md: "six experiments", but the workshop has 7/);
  });

  it("a preset's run time in RESULTS that its own runtime contradicts", () => {
    const results = doc('docs/RESULTS.md').text;
    expect(runTimeProblems(results, PRESETS)).toEqual([]);
    const said = /### diversity[\s\S]*?Run time: ([^*]+) per seed/.exec(results)![1];
    expect(runTimeProblems(results.replace(`Run time: ${said} per seed`, 'Run time: 24-30 s per seed'), PRESETS)).toEqual([
      `docs/RESULTS.md: diversity's run time is "24-30 s per seed", its preset's runtime says "${said}" (src/core/experiment/presets*.ts)`,
    ]);
  });

  it('a stale time from a preset\'s link', () => {
    const said = linkTime('peers-learn')!.text;
    const problems = figureProblems(planted('docs/LAB.md', `${said} from its link`, '46-54 s from its link'), src, FORMATS);
    expect(problems.join('\n')).toMatch(/"46-54 s" from peers-learn's link, but it measured/);
  });

  it("a preset's time that its page timing contradicts, or names another browser", () => {
    const row = src.pageTimings.find((t) => t.query === '?v=1&preset=overlap')!;
    const stale = { overlap: { ...PRESET_RUNTIMES.overlap, range: '52 s' } };
    expect(runtimeProblems(stale, src.pageTimings).join('\n')).toContain(`overlap says 52 s, but its link last measured ${row.doneS.toFixed(1)} s`);
    const otherBrowser = src.pageTimings.map((t) => (t === row ? { ...t, browser: 'Chromium 999.0.0.0' } : t));
    expect(runtimeProblems({ overlap: PRESET_RUNTIMES.overlap }, otherBrowser).join('\n')).toContain('last measured on Chromium 999');
    expect(runtimeProblems({ overlap: PRESET_RUNTIMES.overlap }, []).join('\n')).toContain('no finished timing of ?v=1&preset=overlap');
  });

  it('a stale size of the shipped warm starts', () => {
    const shipped = (src.warmStarts.reduce((n, f) => n + f.bytes, 0) / 1e6).toFixed(1);
    const problems = figureProblems(planted('docs/LAB.md', `about ${shipped} MB for all presets`, 'about 3.4 MB for all presets'), src, FORMATS);
    expect(problems.join('\n')).toMatch(/the shipped warm starts are "about 3.4 MB"/);
  });

  it("a preset's RL steps and its link's seed", () => {
    const { steps, seed } = PRESETS['peers-learn'].spec;
    const problems = figureProblems(planted('README.md', `seed ${seed}) after its ${steps} RL steps`, 'seed 1) after its 80 RL steps'), src, FORMATS).join('\n');
    expect(problems).toContain(`peers-learn has ${steps} RL steps, not 80`);
    expect(problems).toContain(`peers-learn's link opens seed ${seed}, not 1`);
  });

  it('a format table that says no migration where the code has one', () => {
    const problems = figureProblems(planted('docs/RELIABILITY.md', '| 2 | `parseBundle` | 1 migrated to 2 |', '| 1 | `parseBundle` | migrations (none yet) |'), src, FORMATS);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/bundle\.ts writes version 2, the table says 1/), expect.stringMatching(/bundle\.ts migrates from \[1\]/)]));
  });

  it('a stale generated block, and one filled again', () => {
    const readme = doc('README.md').text.replace('| 120 |', '| 80 |');
    expect(staleBlocks(readme, blocks)).toEqual(['presets']);
    expect(staleBlocks(fillBlocks(readme, blocks), blocks)).toEqual([]);
  });

  it('a workshop talking point whose time or models its preset contradicts', () => {
    expect(workshopProblems(WORKSHOP)).toEqual([]);
    const plant = (presetId: string, setup: string) => WORKSHOP.map((s) => (s.presetId === presetId ? { ...s, setup } : s));
    // families runs in 29 s from its link; the old card said "About 2 minutes".
    expect(workshopProblems(plant('families', 'Four partners. About 2 minutes on a 2-core CPU (wasm).')).join('\n')).toContain('says "About 2 minutes", but its link measured 29 s');
    expect(workshopProblems(plant('overlap', 'Seven MLPs, about a minute in the browser.')).join('\n')).toContain('says "about a minute", but its link measured 26 s');
    expect(workshopProblems(plant('peers-teach', 'Two small transformers. About 45 seconds on a 2-core CPU (wasm).')).join('\n')).toContain('"About 45 seconds", but its link measured 30-35 s');
    // overlap's A is an MLP.
    expect(workshopProblems(plant('overlap', 'One transformer A learns next to each partner.')).join('\n')).toContain('says "One transformer A", but its members are 7 MLPs and A is an MLP');
    expect(workshopProblems(plant('collapse', 'Two small models (transformers) of equal strength.')).join('\n')).toContain('its members are 2 MLPs');
    expect(statedTimes('About 16 seconds; the whole run in 1.7 min; ones as')).toEqual([
      { said: 'About 16 seconds', lo: expect.closeTo(13.6, 5), hi: expect.closeTo(18.4, 5) },
      { said: '1.7 min', lo: expect.closeTo(99, 0), hi: expect.closeTo(105, 0) },
    ]);
  });

  it('a count of the workshop\'s presets', () => {
    const said = `sequence of ${['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'][WORKSHOP.length]} presets`;
    const problems = figureProblems(planted('README.md', said, "sequence of six presets"), src, FORMATS);
    expect(problems.join('\n')).toContain(`"six presets", but the workshop has ${WORKSHOP.length}`);
    const seeds = figureProblems(planted('README.md', "what the preset's seeds\n  measured (8, or 12 for overlap)", 'what 8 seeds\n  measured'), src, FORMATS);
    expect(seeds.join('\n')).toMatch(/"what 8 seeds\s+measured", but the workshop's steps rest on 8 seeds or 12 seeds/);
    const block = figureProblems(planted('README.md', "**8 seeds per block** (12 for `overlap`'s confirmation)", '**8 seeds per block**'), src, FORMATS);
    expect(block.join('\n')).toContain('README.md: "8 seeds per block", but the plan\'s confirmation blocks hold 8 or 12 seeds');
    const wait = figureProblems(planted('docs/CLASSROOM.md', 'waits 20 seconds (`npm run room', 'waits 30 seconds (`npm run room'), src, FORMATS);
    expect(wait.join('\n')).toContain('docs/CLASSROOM.md: "waits 30 seconds", but a seat waits 20 s for a partner by default');
    const waitMs = figureProblems(planted('docs/ROOM.md', '`partnerWaitMs` (20 s unless', '`partnerWaitMs` (15 s unless'), src, FORMATS);
    expect(waitMs.join('\n')).toContain('docs/ROOM.md: "partnerWaitMs` (15 s", but a seat waits 20 s');
    const classroom = figureProblems(planted('docs/CLASSROOM.md', "what the preset's seeds measured (8, or 12 for `overlap`; docs/RESULTS.md)", 'what 8 seeds measured (docs/RESULTS.md)'), src, FORMATS);
    expect(classroom.join('\n')).toContain('docs/CLASSROOM.md: "what 8 seeds measured", but the workshop\'s steps rest on 8 seeds or 12 seeds');
  });

  it("a time from a preset's link on another browser, in a sentence that names the preset only before it", () => {
    const problems = figureProblems(planted('README.md', '(Chromium 150) it takes 16-23 s from its link', '(Chromium 156) it takes 15-16 s from its link'), src, FORMATS).join('\n');
    expect(problems).toContain('"15-16 s" from peers-learn\'s link, but it measured 16-23 s');
    expect(problems).toContain('on Chromium 156, but it was measured on');
  });

  it('an overlap verdict its sources contradict', () => {
    const results = doc('docs/RESULTS.md').text;
    expect(overlapProblems(results, src.overlapPoints)).toEqual([]);
    const row = '+0.15 [+0.05, +0.25] SHOWN; Holm SHOWN (seeds 201-212) | **SHOWN** |';
    expect(results).toContain(row);
    const denied = overlapProblems(results.replace(row, '+0.15 [+0.05, +0.25] SHOWN; Holm NOT SHOWN (seeds 201-212) | **NOT SHOWN** |'), src.overlapPoints).join('\n');
    expect(denied).toContain('the reference points give "SHOWN; Holm SHOWN (seeds 201-212)"');
    expect(denied).toContain("overlap (ends)'s headline is **NOT SHOWN**, its confirmation Holm verdict SHOWN");
    const moved = overlapProblems(results.replace(row, row.replace('+0.15 [+0.05', '+0.25 [+0.05')), src.overlapPoints).join('\n');
    expect(moved).toContain('the reference points give 0.15, 0.05, 0.25');
    const gone = overlapProblems(results.replace(/^\| \(ends\).*\| overlap \|.*\n/m, ''), src.overlapPoints);
    expect(gone).toContain('docs/RESULTS.md: the summary has no overlap row (ends)');
  });

  it("BENCHMARKS' page table against the timings it prints (a superseded row kept in one and not the other)", () => {
    const bench = doc('docs/BENCHMARKS.md');
    expect(pageTableProblems(bench, src.pageTimings)).toEqual([]);
    const old = { query: '?workers=1', browser: 'Chromium 156.0.8078.114', doneS: 13.03, timedOut: false, date: '2026-12-01' };
    expect(pageTableProblems(bench, [...src.pageTimings, old]).join('\n')).toContain('the page table has 7 rows, bench/results/page.json 8 timings');
    const planted = bench.text.replace('| `/?v=1&preset=collapse` | Chromium 150.0.7871.100 | wasm | 1.1 | 4.6 | 12.7 |', '| `/?v=1&preset=collapse` | Chromium 156.0.8078.114 | wasm | 1.1 | 4.6 | 14.4 |');
    expect(pageTableProblems({ ...bench, text: planted }, src.pageTimings).join('\n')).toContain('`/?v=1&preset=collapse` ends at 14.4 on Chromium 156.0.8078.114 in the page table, 12.7 s on Chromium 150.0.7871.100');
  });

  it("the front door denying the overlap verdict, as it did before it carried it", () => {
    const readme = doc('README.md').text;
    const start = readme.indexOf('**A more different partner teaches more**');
    const end = readme.indexOf('\n\n', start);
    const old = '**A more different partner helping more is not\nshown** (`diversity`, `families`): independently seeded tiny models hardly share errors here.';
    const problems = figureProblems(docs.map((d) => (d.path === 'README.md' ? { ...d, text: readme.slice(0, start) + old + readme.slice(end) } : d)), src, FORMATS);
    expect(problems).toContain("README.md: \"In short\" must say **a more different partner teaches more** with its headline (SHOWN, +0.15 [+0.05, +0.25] on `overlap`'s confirmation seeds)");
    const denied = readme.replace('a model gained +0.15 [+0.05, +0.25] more', 'it is not shown that a model gained +0.15 [+0.05, +0.25] more');
    expect(figureProblems(planted('README.md', readme, denied), src, FORMATS).join('\n')).toContain('"In short" must say **a more different partner teaches more**');
  });

  it('a claim said to hold in every pair preset where a headline says otherwise', () => {
    const said = 'models) is shown on the confirmation seeds in `collapse`, `peers-learn` and `peers-teach`, and\n   not shown in `length` (+0.06 [−0.04, +0.16]); in';
    const problems = figureProblems(planted('docs/RESULTS.md', said, 'models) holds in every pair preset; in'), src, FORMATS).join('\n');
    expect(problems).toContain('docs/RESULTS.md: says (d) holds in every pair preset, but its headline is not SHOWN in length');
  });

  it('a page time quoted from a browser the page benchmark did not time', () => {
    const said = "software emulation` (the time from a link to its first RL step, per preset:\ndocs/BENCHMARKS.md's page table).";
    const old = 'software emulation` (headless Chromium 156 on the 2-core machine: the first RL step\nis shown about 3 s after the page opens).';
    expect(figureProblems(planted('docs/LAB.md', said, old), src, FORMATS).join('\n')).toContain('docs/LAB.md: quotes a page time on Chromium 156, but the page benchmark\'s timings are Chromium 150');
  });

  it("BENCHMARKS' gpu section with a step time, a row or a run its results file does not hold", () => {
    const text = doc('docs/BENCHMARKS.md').text;
    const row = text.split('\n').find((l) => l.startsWith('| webgpu | true | `collapse` |'))!;
    const cells = row.split(' | ');
    const stepCell = cells.findIndex((c) => /^\d+(\.\d+)? \(/.test(c));
    const planted = row.replace(cells[stepCell], '42.0 (40.0-44.0)');
    const moved = gpuSectionProblems('docs/BENCHMARKS.md', text.replace(row, planted), gpuFile).join('\n');
    expect(moved).toContain('the gpu table\'s row webgpu true `collapse` 6 says "' + planted + '"');
    const gone = gpuSectionProblems('docs/BENCHMARKS.md', text.replace(row + '\n', ''), gpuFile).join('\n');
    expect(gone).toContain('the gpu table has no row webgpu true `collapse` 6, which bench/results/gpu.json holds');
    const oneRun = { ...gpuFile, runs: gpuFile.runs.slice(-1) };
    expect(gpuSectionProblems('docs/BENCHMARKS.md', text, oneRun).join('\n')).toMatch(/the gpu table's row webgpu true `collapse` 6 says/);
    const prose = text.replace('webgpu on this GPU is slower in', 'webgpu on this GPU is faster in');
    expect(gpuSectionProblems('docs/BENCHMARKS.md', prose, gpuFile)).toEqual(['docs/BENCHMARKS.md: the gpu section is not what bench/results/gpu.json makes (npx tsx cli/bench/bench-gpu-lib.ts --write)']);
    expect(gpuSectionProblems('docs/BENCHMARKS.md', text, null)).toEqual(['docs/BENCHMARKS.md: has a gpu section (<!-- gpu -->), but there is no bench/results/gpu.json']);
  });

  it('a doc that nothing links', () => {
    const problems = figureProblems([...docs, { path: 'docs/ORPHAN.md', text: '# nobody links me\n' }], src, FORMATS);
    expect(problems).toContain('docs/ORPHAN.md: no doc reachable from README.md names it');
  });

  it('reads the headlines and the times it compares', () => {
    const rows = summaryRows(doc('docs/RESULTS.md').text);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.find((r) => r.preset === 'peers-learn' && r.claim.startsWith('(learns)'))?.headline).toBe('**SHOWN**');
    expect(seconds('43-44 s')).toEqual({ lo: 43, hi: 44, slack: 0.5 });
    expect(seconds('1.7 min')).toEqual({ lo: 102, hi: 102, slack: 3 });
    expect(Object.keys(PRESETS).filter((id) => linkTime(id) === null)).not.toContain('peers-learn');
  });
});

describe("TASKS' table of verdicts on the page", () => {
  it('names why the page could not tell, from the sentence it wrote', () => {
    expect(
      cannotTellCause(
        'On "Max", over 4 seeds (seeds 110-113), the lab cannot tell whether self-reward collapses or a peer helps: the oracle arm, rewarded with the true answers, did not learn it: its held-out pass@1 went from 0.48 to 0.59 (change +0.11 [−0.10, +0.32]: no gain beyond its noise). What would help: only 20 held-out problems.',
      ),
    ).toBe('the oracle arm, rewarded with the true answers, did not learn it: its held-out pass@1 went from 0.48 to 0.59');
    expect(
      cannotTellCause(
        "On \"w\", over 1 seed (seed 110), the lab cannot tell whether self-reward collapses or a peer helps: only one seed of the block ran to its end. What would help: Member A's warm start reached at best 47% against its target of 50% in 200 steps, so this task looks out of its reach.",
      ),
    ).toBe("only one seed of the block ran to its end; Member A's warm start reached at best 47% against its target of 50% in 200 steps");
  });

  it('says how many questions met the 3-minute target and that every verdict had an oracle that learnt', () => {
    const row = (question: string, state: string, seconds: number | null, truth?: string): VerdictTiming => {
      const parts: Record<string, string> = truth ? { truth } : {};
      return { question, kind: 'gallery', what: question, browser: 'Chromium 1', backend: 'wasm', state, seconds, seeds: 4, parts, sentence: '', load: 3, date: '2026-12-08' };
    };
    const text = verdictsBlock({ verdicts: [row('largest-digit', 'verdict', 150, 'shown'), row('running-sums', 'verdict', 200, 'shown'), row('which-is-smaller', 'timed out', null)] });
    expect(text).toContain('Within 3 minutes: 1 of 3. A verdict on 2, each where the oracle learnt (2 of 2); "cannot tell" on 0; no answer within the timeout on 1.');
    expect(text).toContain('| `running-sums` | gallery pick: running-sums | **verdict** | 4 | learnt | – | – | – | 200.0 | no | 3 |');
  });
});
