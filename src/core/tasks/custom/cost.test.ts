/**
 * The check's cost bound holds: every evaluation spends at most the steps cost.ts says it can,
 * on arbitrary well-formed trees and the longest sources; and the template proof of distinct
 * prompts agrees with counting them one by one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptsAreDistinct, ruleSteps } from './cost';
import { evaluate, type Budget } from './evaluate';
import { ExprError, parseExpr } from './expr';
import { fillTemplate, parseTemplate } from './template';

const tree: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.constantFrom('a', 'b', '"x,y"', '""', '"abcdefghijklmnopqrstuvwxyz"', '9007199254740991'),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '==', '<', '&&', '||'), tie('e')).map(([l, o, r]) => `(${l}${o}${r})`),
    fc.tuple(fc.constantFrom('-', '!'), tie('e')).map(([o, e]) => `${o}${e}`),
    fc.tuple(fc.constantFrom('min', 'max', 'abs', 'str', 'len', 'digits', 'digitsum', 'reverse', 'sort', 'join', 'cat', 'pad', 'at', 'count', 'if', 'num'), fc.array(tie('e'), { minLength: 1, maxLength: 4 }))
      .map(([f, args]) => `${f}(${args.join(',')})`),
  ),
})).e;

/** Steps `source` spends at a and b, thrown or not. */
function spent(source: string, env: Record<string, number>): number {
  const budget: Budget = { steps: 0 };
  try {
    evaluate(parseExpr(source), env, budget);
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
  }
  return budget.steps;
}

describe("the check's cost bound", () => {
  it('is never below the steps an evaluation spends, on arbitrary trees and values in the ranges', () => {
    const vars = { a: { min: -999_999, max: 999_999 }, b: { min: 0, max: 99 } };
    fc.assert(
      fc.property(tree, fc.integer({ min: -999_999, max: 999_999 }), fc.integer({ min: 0, max: 99 }), (source, a, b) => {
        let node;
        try {
          node = parseExpr(source);
        } catch {
          return;
        }
        expect(spent(source, { a, b })).toBeLessThanOrEqual(ruleSteps(node, vars));
      }),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('holds for the longest texts and the deepest nesting the limits allow', () => {
    const vars = { a: { min: 0, max: 9 } };
    for (const source of [
      'pad('.repeat(30) + '1' + ',64)'.repeat(30),
      'len(' + 'sort(reverse('.repeat(14) + 'pad(a,64,"x")' + '))'.repeat(14) + ')',
      'count(cat(' + Array.from({ length: 8 }, () => '"abcdefgh"').join(',') + '),"a")',
      Array.from({ length: 45 }, (_, i) => `a*${i}`).join('+'),
    ]) {
      expect(spent(source, { a: 7 })).toBeLessThanOrEqual(ruleSteps(parseExpr(source), vars));
    }
  });

  it('is tight enough to mean something: a+b costs 3 steps, len(str(a)) at most 2 + 3 + the widest a', () => {
    expect(ruleSteps(parseExpr('a+b'), { a: { min: 0, max: 9 }, b: { min: 0, max: 9 } })).toBe(3);
    expect(ruleSteps(parseExpr('len(str(a))'), { a: { min: -999, max: 99 } })).toBe(3 + 4 + 4);
  });
});

describe('distinct prompts, proven from the template', () => {
  const count = (template: string, vars: Record<string, { min: number; max: number }>) => {
    const parts = parseTemplate(template);
    const names = Object.keys(vars);
    const prompts = new Set<string>();
    const walk = (i: number, env: Record<string, number>) => {
      if (i === names.length) { prompts.add(fillTemplate(parts, env)); return; }
      for (let v = vars[names[i]].min; v <= vars[names[i]].max; v++) walk(i + 1, { ...env, [names[i]]: v });
    };
    walk(0, {});
    return { proven: promptsAreDistinct(parts, vars), distinct: prompts.size, all: names.reduce((n, k) => n * (vars[k].max - vars[k].min + 1), 1) };
  };

  it('proves the templates where every problem has its own prompt, and only those', () => {
    const cases: [string, Record<string, { min: number; max: number }>][] = [
      ['{a}+{b}=', { a: { min: -20, max: 20 }, b: { min: 0, max: 30 } }],
      ['{a}{b}{c}', { a: { min: 0, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 } }],
      ['{a}{b}=', { a: { min: 0, max: 200 }, b: { min: 0, max: 99 } }],
      ['{a}{b}', { a: { min: 10, max: 99 }, b: { min: 0, max: 120 } }],
      ['{a}1{b}', { a: { min: 0, max: 30 }, b: { min: 0, max: 30 } }],
      ['{a}-{b}', { a: { min: -12, max: 12 }, b: { min: -12, max: 12 } }],
      ['{a}{b}', { a: { min: -9, max: -1 }, b: { min: -5, max: 5 } }],
      ['{a}x{b}{a}', { a: { min: 0, max: 30 }, b: { min: 0, max: 12 } }],
      ['{a}{b}', { a: { min: -1, max: 1 }, b: { min: 0, max: 9 } }],
    ];
    for (const [template, vars] of cases) {
      const { proven, distinct, all } = count(template, vars);
      // A proof is never wrong; and these templates that collide are never proven.
      if (proven) expect(distinct, template).toBe(all);
      if (distinct < all) expect(proven, template).toBe(false);
    }
    expect(count('{a}{b}=', { a: { min: 0, max: 200 }, b: { min: 0, max: 99 } }).distinct).toBe(18_390);
    expect(count('{a}+{b}=', { a: { min: -20, max: 20 }, b: { min: 0, max: 30 } }).proven).toBe(true);
    expect(count('{a}{b}{c}', { a: { min: 0, max: 9 }, b: { min: 0, max: 9 }, c: { min: 0, max: 9 } }).proven).toBe(true);
    expect(count('{a}{b}', { a: { min: 10, max: 99 }, b: { min: 0, max: 120 } }).proven).toBe(true);
  });
});
