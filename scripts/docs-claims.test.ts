/**
 * Every sentence in the docs and in the page's own words claims no more than its verdict
 * (scripts/docs-claims.ts: bold finding words only beside a headline, bold verdicts beside their
 * numbers, "not shown" never read as "no difference", a causal "because" about a finding said
 * as a reading). Each rule is shown failing on a planted sentence of its kind.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/core/experiment/presets';
import { WORKSHOP } from '../src/app/workshop/sequence';
import { claimProblems, longSentences } from './docs-claims';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const rules = (text: string) => claimProblems('planted', text).map((c) => c.rule);

describe('what a sentence may claim', () => {
  it('no doc says more than its verdict', () => {
    const found = DOCS.flatMap((path) => claimProblems(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(found.map((c) => `${c.where} (${c.rule}): ${c.text.slice(0, 200)}`)).toEqual([]);
  });

  it("nor does the page: the presets' paragraphs, the workshop's set-ups and talking points", () => {
    const page = [
      ...Object.values(PRESETS).map((p) => ({ where: `preset ${p.id}`, text: p.explanation })),
      ...WORKSHOP.flatMap((s) => [
        { where: `workshop ${s.presetId} set-up`, text: s.setup },
        { where: `workshop ${s.presetId} talking point`, text: s.talkingPoint },
      ]),
    ];
    expect(page.flatMap((p) => claimProblems(p.where, p.text)).map((c) => `${c.where} (${c.rule}): ${c.text}`)).toEqual([]);
  });

  it('a bold fell or rose on a first reading fails; beside its headline it passes', () => {
    expect(rules('Held-out accuracy **fell** on `add-with-carry` (−0.28) and **rose** on `running-sums`.')).toEqual(['bold direction']);
    expect(rules('On the confirmation seeds (the headline) it **fell**: −0.15 [−0.19, −0.11].')).toEqual([]);
  });

  it('a bold verdict without its numbers fails; with them, or defining the word, it passes', () => {
    expect(rules('Peers teach: **shown** in every pair preset.')).toEqual(['bold verdict']);
    expect(rules('Peers teach: **shown** (+0.16 [+0.09, +0.24]).')).toEqual([]);
    expect(rules('**shown** when the interval lies above 0.')).toEqual([]);
  });

  it('"not shown" read as "no difference" fails; "no difference shown" passes', () => {
    expect(rules('The cross-family partner matched on gain (+0.06 [−0.04, +0.15]), not shown, so family made no difference here.')).toEqual(['not shown']);
    expect(rules('Neither is shown, so there was no effect of family.')).toEqual(['not shown']);
    expect(rules('The two versions overlap, not shown: no difference between them was shown.')).toEqual([]);
  });

  it('a cause stated as a finding fails; said as a reading it passes', () => {
    expect(rules('`diversity` did not show it because independently seeded models hardly share errors.')).toEqual(['because']);
    expect(rules('`diversity` did not show it, possibly because its partners hardly share errors (a possible reason, not a tested one).')).toEqual([]);
    expect(rules('The key leaves out `collapseDelta` because the warm start does not read it.')).toEqual([]);
  });

  it("a reader's doc reads aloud: no sentence over 40 words for a student or a teacher, over 60 in the teacher's guide", () => {
    const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
    expect(longSentences(read('docs/STUDENTS.md'), 40)).toEqual([]);
    expect(longSentences(read('docs/TEACHERS.md'), 40)).toEqual([]);
    expect(longSentences(read('docs/CLASSROOM.md'), 60)).toEqual([]);
    const long = `A presenter opens a room, ${'and then a student joins it '.repeat(12)}at last.`;
    expect(longSentences(`Short one. ${long} Another.`, 60)).toEqual([long]);
    expect(longSentences('- one two three\n- four five six', 4)).toEqual([]);
  });
});
