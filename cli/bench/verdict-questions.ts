/**
 * The questions whose verdicts docs/TASKS.md tables (cli/bench/bench-verdict.ts times them in the
 * page; e2e/verdict.spec.ts asks the three of students' own as a student does): every gallery task,
 * then three questions students brought, each as the student put it in.
 */
import { GALLERY } from '../../src/core/tasks/custom/gallery';

/**
 * A question as a student poses it. `problems`: the editor's count of its distinct problems as the
 * page writes it, which the page shows once it has checked what was typed (Use this task then uses it).
 */
export type VerdictQuestion =
  | { id: string; kind: 'gallery'; title: string }
  | { id: string; kind: 'generator'; title: string; template: string; vars: string; answer: string; problems: string }
  | { id: string; kind: 'data'; title: string; file: string; csv: string; problems: string };

/** 32 words and their lengths (`cat=` -> 3): a data task whose held-out set is a handful. */
export function wordLengthCsv(): string {
  const words = [
    'cat', 'tree', 'house', 'garden', 'sun', 'moon', 'river', 'bridge', 'apple', 'pear', 'plum', 'orange', 'dog', 'horse', 'bird', 'rabbit',
    'red', 'blue', 'green', 'yellow', 'car', 'train', 'boat', 'rocket', 'pen', 'book', 'paper', 'pencil', 'cup', 'table', 'chair', 'window',
  ];
  return ['prompt,answer', ...words.map((w) => `${w}=,${w.length}`)].join('\n') + '\n';
}

/** The gallery's tasks, then three questions students brought. */
export const VERDICT_QUESTIONS: readonly VerdictQuestion[] = [
  ...GALLERY.map((t) => ({ id: t.id, kind: 'gallery' as const, title: t.definition.title })),
  { id: 'max-of-two-digits', kind: 'generator', title: 'The larger of two digits', template: '{a},{b} max=', vars: 'a = 0..9\nb = 0..9', answer: 'max(a, b)', problems: '100' },
  { id: 'product-last-digit', kind: 'generator', title: 'Last digit of a product', template: '{a}*{b}=', vars: 'a = 0..99\nb = 0..99', answer: '(a*b)%10', problems: '10,000' },
  { id: 'word-length', kind: 'data', title: 'A word and its length', file: 'word-length.csv', csv: wordLengthCsv(), problems: '32' },
];
