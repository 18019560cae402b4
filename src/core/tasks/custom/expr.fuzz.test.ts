/**
 * The parser and the evaluator on arbitrary input: they return a value or throw an ExprError,
 * never anything else (no TypeError, no RangeError from a deep stack, no hang), whatever the
 * source. Two generators: raw strings over the language's alphabet and beyond, and well-formed
 * expression trees that exercise evaluation rather than syntax.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { EXPR_LIMITS, ExprError, parseExpr } from './expr';

function onlyExprErrors(source: string, env: Record<string, number>): void {
  try {
    const v = evaluate(parseExpr(source), env);
    if (typeof v === 'number') expect(Number.isSafeInteger(v)).toBe(true);
    else expect(v.length).toBeLessThanOrEqual(EXPR_LIMITS.textChars);
  } catch (e) {
    if (!(e instanceof ExprError)) throw e;
    expect(e.position).toBeGreaterThanOrEqual(0);
    expect(e.position).toBeLessThanOrEqual(Math.max(source.length, EXPR_LIMITS.sourceChars));
  }
}

const alphabet = fc.constantFrom(...'0123456789abxyz_()"+-*/%!<>=&|, ', ...['min(', 'max(', 'pad(', 'join(', 'cat(', 'if(', 'digits(', 'reverse(', 'sort(', 'count(', 'at(', 'num(', '\u202e', 'é', '99999999999']);
const tree: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -1e6, max: 1e6 }).map(String),
    fc.constantFrom('a', 'b', '"x,y"', '""', '9007199254740991'),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '==', '<', '&&', '||'), tie('e')).map(([l, o, r]) => `(${l}${o}${r})`),
    fc.tuple(fc.constantFrom('min', 'max', 'abs', 'str', 'len', 'digits', 'digitsum', 'reverse', 'sort', 'join', 'cat', 'pad', 'at', 'count', 'if', 'num'), fc.array(tie('e'), { minLength: 1, maxLength: 3 }))
      .map(([f, args]) => `${f}(${args.join(',')})`),
  ),
})).e;

describe('the task language under fuzzing', () => {
  it('throws nothing but ExprError on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }).map((xs) => xs.join('')), fc.integer(), (source, a) => onlyExprErrors(source, { a, b: 7 })),
      { numRuns: 2000, seed: 42 },
    );
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (source) => onlyExprErrors(source, { a: 1 })), { numRuns: 1000, seed: 7 });
  });

  it('throws nothing but ExprError on well-formed trees, with any variable values', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -1e9, max: 1e9 }), (source, a, b) => onlyExprErrors(source, { a, b })),
      { numRuns: 2000, seed: 3 },
    );
  });

  it('survives the longest and deepest sources the limits allow', () => {
    onlyExprErrors('-'.repeat(EXPR_LIMITS.sourceChars - 1) + '1', {});
    onlyExprErrors('!'.repeat(EXPR_LIMITS.sourceChars - 1) + '1', {});
    onlyExprErrors('1' + '*1'.repeat((EXPR_LIMITS.sourceChars - 1) / 2), {});
    onlyExprErrors('pad('.repeat(30) + '1' + ',64)'.repeat(30), {});
  });
});
