/**
 * The gallery: generator tasks a student can open with one click, chosen to differ in what makes
 * self-reward fail or hold (a yes/no answer, a count, letters, a long answer, a carry the model
 * may get wrong the same way every time, answers crowded on a few digits). Every task
 * fits the default experiment's split (600 labeled, 300 RL and 100 held-out problems) and the
 * default members: windowed MLPs that see the last 6 characters, so each character of a
 * completion depends on characters at most 6 back (a scratchpad carries what is further away).
 * docs/TASKS.md, "The gallery", lists them; docs/RESULTS.md, "The gallery, measured", gives what
 * the default arms did on each (npm run science -- --tasks).
 */
import type { GeneratorDefinition } from './definition';

export interface GalleryTask {
  id: string;
  definition: GeneratorDefinition;
  scratchpad: 'always' | 'never' | 'mixed';
  forStudents: string;
}

const LETTERS = '"abcdefghij"';

export const GALLERY: readonly GalleryTask[] = [
  {
    id: 'which-is-smaller',
    scratchpad: 'never',
    definition: {
      kind: 'generator',
      title: 'Is the first number smaller?',
      description: 'Two numbers from 10 to 99: answer Y when the first is smaller, N otherwise.',
      template: '{a}<{b}',
      vars: { a: { min: 10, max: 99 }, b: { min: 10, max: 99 } },
      answer: 'if(a < b, "Y", "N")',
    },
    forStudents:
      'Only two answers are possible, Y or N, so a model that guesses is right half the time: the ' +
      'warm start reaches its target almost at once, and a score of 50% means nothing here. When the ' +
      'model leans the right way on a question its majority vote is right even if single answers are ' +
      'shaky; when it leans the wrong way the vote is wrong every time. Watch whether self-reward ' +
      'makes the model surer of both kinds of lean, and how far above 50% each arm really gets.',
  },
  {
    id: 'largest-digit',
    scratchpad: 'never',
    definition: {
      kind: 'generator',
      title: 'The largest of four digits',
      description: 'Four digits in a row: answer the largest one.',
      template: '{a}{b}{c}{d}',
      vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 }, d: { min: 0, max: 9 } },
      answer: 'max(a, b, c, d)',
    },
    forStudents:
      'Most of these questions have 9 or 8 as the answer, so a model can look good by leaning ' +
      'towards big digits, and its majority vote agrees with the truth on many questions without ' +
      'having learned to compare. This is the case label-free training hopes for, a vote that is ' +
      'often right. Watch the rarer questions whose answer is small: does self-reward teach the model ' +
      'to compare, or pay it to lean even harder towards 9?',
  },
  {
    id: 'count-big-digits',
    scratchpad: 'always',
    definition: {
      kind: 'generator',
      title: 'How many digits are 5 or more?',
      description: 'Five digits: count those that are 5 or more. The scratchpad keeps a running count.',
      template: '{a}{b}{c}{d}{e}',
      vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 }, d: { min: 0, max: 9 }, e: { min: 0, max: 9 } },
      answer: '(a > 4) + (b > 4) + (c > 4) + (d > 4) + (e > 4)',
      scratchpad: 'cat(a > 4, (a > 4) + (b > 4), (a > 4) + (b > 4) + (c > 4), (a > 4) + (b > 4) + (c > 4) + (d > 4))',
    },
    forStudents:
      'Counting: the answer is 0 to 5, and the model writes its running count as it goes. A model ' +
      'that miscounts one digit is off by one, and a wrong vote lands on a neighbour of the right ' +
      'answer. Watch whether the eight votes agree on one count or spread over two or three, and ' +
      'whether rewarding the most common count teaches the model to count or just to repeat itself.',
  },
  {
    id: 'digits-to-letters',
    scratchpad: 'never',
    definition: {
      kind: 'generator',
      title: 'Spell digits as letters',
      description: 'Four digits: write each as a letter, 0 as a, 1 as b, up to 9 as j.',
      template: '{a}{b}{c}{d}',
      vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 }, d: { min: 0, max: 9 } },
      answer: `cat(at(${LETTERS}, a), at(${LETTERS}, b), at(${LETTERS}, c), at(${LETTERS}, d))`,
    },
    forStudents:
      'The answers are words of four letters, and there are 10,000 of them, so the eight samples ' +
      'rarely match by luck: when they agree, it is because the model learned something. One wrong ' +
      'letter makes the whole answer wrong. Watch how often the samples agree at all, and whether ' +
      'the model learns the code letter by letter or gets stuck on a few letters it likes.',
  },
  {
    id: 'running-sums',
    scratchpad: 'never',
    definition: {
      kind: 'generator',
      title: 'Running sums, last digit',
      description: 'Five digits, the first not 0: write the last digit of the sum of the first one, two, three, four and five of them.',
      template: '{a}{b}{c}{d}{e}',
      vars: { a: { min: 1, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 }, d: { min: 0, max: 9 }, e: { min: 0, max: 9 } },
      answer: 'cat(a % 10, (a + b) % 10, (a + b + c) % 10, (a + b + c + d) % 10, (a + b + c + d + e) % 10)',
    },
    forStudents:
      'A long answer: five digits, each built on the one before, so a single slip spoils every ' +
      'digit after it. Two samples of a long answer rarely match by luck, so when the eight samples ' +
      'agree, the model worked something out; but a model that slips the same way every time agrees ' +
      'with itself on a wrong answer too. Watch the reward of the self arm: is it rewarding the model ' +
      'for being right, or only for saying the same five digits again?',
  },
  {
    id: 'add-with-carry',
    scratchpad: 'never',
    definition: {
      kind: 'generator',
      title: 'Add two numbers, no working shown',
      description: 'Two numbers from 10 to 49: write their sum, with no scratchpad.',
      template: '{a}+{b}',
      vars: { a: { min: 10, max: 49 }, b: { min: 10, max: 49 } },
      answer: 'a + b',
    },
    forStudents:
      'Adding without writing anything down: the tens digit needs the carry from the ones, and a ' +
      'small model may learn to add the tens and forget the carry. A model that forgets it makes the ' +
      'same mistake on most of its samples, so its majority vote is wrong in the same way, and ' +
      'self-reward pays it for that mistake. Watch the sums that carry: does self-reward make the ' +
      'model surer of a wrong answer, and can a partner who forgets the carry less often teach it back?',
  },
];
