/**
 * What a sentence may claim (docs/METHOD.md, "What a sentence may say"), checked in the docs and
 * in the page's own words (the presets' paragraphs, the workshop's set-ups and talking points):
 *
 *   bold direction   a bold finding word (**fell**, **rose**, **collapses**, **teaches**, ...) is a
 *                    headline's voice: its paragraph or table row names the headline, the
 *                    confirmation (fresh) seeds or Holm; a first reading on seeds nobody froze
 *                    settings for says its direction without bold
 *   bold verdict     a bold **shown** / **not shown** / **contradicted** sits beside its numbers
 *                    (a signed difference or an interval in the same row or paragraph), or defines
 *                    the word (followed by ":", "when" or "where", or after "otherwise")
 *   not shown        a sentence that reads a difference as "not shown" does not go on to call it
 *                    no difference, no effect, or one that made none ("no difference shown" is fine)
 *   because          a causal "because" in a sentence about a finding (collapse, a peer teaching,
 *                    a verdict) says it is a reading, not a result ("a possible reason", "may",
 *                    "not tested", "by construction", "by definition")
 */
export interface Claim {
  where: string;
  rule: 'bold direction' | 'bold verdict' | 'not shown' | 'because';
  text: string;
}

const BOLD_DIRECTION = /\*\*(fell|rose|falls|rises|collapses|collapsed|teaches|taught|learns|learned|gains|gained|leads|holds|held)\*\*/i;
const HEADLINE = /headline|confirmation|\bHolm\b|fresh seeds|seeds (101|109|201)|unseen/i;
const BOLD_VERDICT = /(?<!otherwise )\*\*(shown|not shown|contradicted)\*\*(?!:| when| where)/i;
const NUMBERS = /[+−-]\d\.\d\d|\[[+−-]?\d/;
const NOT_SHOWN = /\b(not shown|neither shown|nor shown|neither is shown)\b/i;
const NO_DIFFERENCE = /\b(made|makes|make) no difference\b|(?<!\bnot (?:that there is |mean )?"?)\bno (difference|effect)\b(?![^.;,]*\bshown)|\bdid not (change|matter)\b/i;
const FINDING = /\bcollaps\w*|\b(peer|partner)s?\b[^.]*\bteach\w*|\bdid not show\b|\bshown\b/i;
const HEDGE = /possible|\bmay\b|might|likely|not tested|a reading|by construction|by design|by definition/i;

/** The text a reader reads as prose: no generated blocks, no fenced code. */
export function proseOf(text: string): string {
  return text
    .replace(/<!-- (generated|science):?([\w:+@/.-]*) -->[\s\S]*?<!-- \/\1:?\2 -->/g, '')
    .replace(/```[\s\S]*?```/g, '');
}

/** Paragraphs, a table's rows each one; lines joined. */
function units(text: string): string[] {
  return proseOf(text)
    .split(/\n\s*\n/)
    .flatMap((p) => (p.trimStart().startsWith('|') ? p.split('\n') : [p]))
    .map((u) => u.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
}

const sentences = (unit: string) => unit.split(/(?<=[.;])\s+(?=[A-Z`*("])/);

/** The claims in `text` (a doc, or one of the page's strings) that say more than their verdict. */
export function claimProblems(where: string, text: string): Claim[] {
  const out: Claim[] = [];
  for (const unit of units(text)) {
    if (BOLD_DIRECTION.test(unit) && !HEADLINE.test(unit)) out.push({ where, rule: 'bold direction', text: unit });
    if (BOLD_VERDICT.test(unit) && !NUMBERS.test(unit)) out.push({ where, rule: 'bold verdict', text: unit });
    for (const s of sentences(unit)) {
      if (NOT_SHOWN.test(s) && NO_DIFFERENCE.test(s)) out.push({ where, rule: 'not shown', text: s });
      const words = s.replace(/`[^`]*`/g, '');
      if (/\bbecause\b/i.test(words) && FINDING.test(words) && !HEDGE.test(words)) out.push({ where, rule: 'because', text: s });
    }
  }
  return out;
}

/**
 * Sentences longer than `max` words in the prose of `text` (lists split into their items, tables
 * left out): a reader's doc (a student's, a teacher's) keeps each sentence short enough to read
 * aloud.
 */
export function longSentences(text: string, max: number): string[] {
  return proseOf(text)
    .split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/)
    .filter((p) => !p.trimStart().startsWith('|'))
    .flatMap((p) => p.replace(/\s+/g, ' ').trim().split(/(?<=[.!?]\)?)\s+(?=[A-Z`*(["])/))
    .filter((s) => s.split(' ').length > max);
}
