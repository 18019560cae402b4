import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { EXPR_LIMITS, ExprError, parseExpr } from './expr';

const ev = (source: string, env: Record<string, number> = {}) => evaluate(parseExpr(source), env);
const fails = (source: string, env: Record<string, number> = {}) => {
  try {
    ev(source, env);
  } catch (e) {
    expect(e).toBeInstanceOf(ExprError);
    return e as ExprError;
  }
  throw new Error(`${source} did not fail`);
};

describe('the expression language', () => {
  it('follows the precedence table', () => {
    expect(ev('1+2*3')).toBe(7);
    expect(ev('(1+2)*3')).toBe(9);
    expect(ev('10-3-2')).toBe(5); // left-associative
    expect(ev('-2*3')).toBe(-6);
    expect(ev('1+2==3 && 2<3')).toBe(1);
    expect(ev('!0 || 0')).toBe(1);
  });

  it('floors division and takes the sign of the divisor for %', () => {
    expect(ev('7/2')).toBe(3);
    expect(ev('-7/2')).toBe(-4);
    expect(ev('-7%3')).toBe(2);
    expect(ev('7%-3')).toBe(-2);
    for (const [a, b] of [[7, 2], [-7, 2], [7, -3], [9007199254740991, 7], [-1000000007, 10]]) {
      expect(ev('(a/b)*b + a%b', { a, b })).toBe(a);
    }
    expect(fails('1/(a-a)', { a: 4 }).message).toMatch(/division by zero at position 1/);
  });

  it('reads variables and the builtins', () => {
    const env = { a: 47, b: 85 };
    expect(ev('a+b', env)).toBe(132);
    expect(ev('digitsum(a)', env)).toBe(11);
    expect(ev('reverse(a)', env)).toBe('74');
    expect(ev('sort(cat(b, a))', env)).toBe('4578');
    expect(ev('join(digits(a), ",")', env)).toBe('4,7');
    expect(ev('pad(7, 3)')).toBe('007');
    expect(ev('pad(7, 3, "x")')).toBe('xx7');
    expect(ev('count("banana", "an")')).toBe(2);
    expect(ev('len(12345)')).toBe(5);
    expect(ev('at("abc", -1)')).toBe('c');
    expect(ev('num("-042")+1')).toBe(-41);
    expect(ev('min(3, 1, 2) + max(4, 9) + abs(-5)')).toBe(15);
    expect(ev('if(a > b, "A", "B")', env)).toBe('B');
    expect(ev('str(a) == "47"', env)).toBe(1);
  });

  it('evaluates only the branch if() takes', () => {
    expect(ev('if(1, 5, 1/0)')).toBe(5);
  });

  it('names the position of a syntax error', () => {
    expect(() => parseExpr('1 + * 2')).toThrow(/unexpected '\*' at position 4/);
    expect(() => parseExpr('min(1, 2')).toThrow(/expected '\)' at position 8/);
    expect(() => parseExpr('a # b')).toThrow(/character '#' at position 2/);
    expect(() => parseExpr('"abc')).toThrow(/no closing/);
    expect(() => parseExpr('')).toThrow(/empty/);
    expect(() => parseExpr('1 2')).toThrow(/unexpected '2' at position 2/);
  });

  it('refuses unknown names and functions and type mix-ups in words', () => {
    expect(fails('c+1', { a: 1 }).message).toMatch(/unknown name 'c' at position 0/);
    expect(fails('evil(1)').message).toMatch(/unknown function 'evil'/);
    expect(fails('constructor(1)').message).toMatch(/unknown function 'constructor'/);
    expect(fails('toString', {}).message).toMatch(/unknown name 'toString'/);
    expect(fails('"a"+1').message).toMatch(/needs a number/);
    expect(fails('abs(1, 2)').message).toMatch(/takes 1 argument/);
    expect(fails('"a" < 1').message).toMatch(/compares a number with a text/);
  });

  it('stops numbers beyond the safe integers instead of rounding them', () => {
    expect(fails('9007199254740991 + 1').message).toMatch(/beyond/);
    expect(fails('99999999*99999999').message).toMatch(/beyond/);
    expect(() => parseExpr('99999999999999999999')).toThrow(ExprError);
  });

  it('bounds text length, nesting, source length and steps', () => {
    expect(fails('pad(1, 1000000000)').message).toMatch(/would have 1000000000 characters; the most is 64/);
    expect(fails('join(join(join(pad(1, 60), ","), ","), ",")').message).toMatch(/the most is 64/);
    expect(() => parseExpr('('.repeat(40) + '1' + ')'.repeat(40))).toThrow(/nests deeper than 32/);
    expect(() => parseExpr('1+'.repeat(200) + '1')).toThrow(/the most is 300/);
    // The source bound caps the work: the busiest 300-character expression stays far inside the step budget.
    const busy = 'len(' + Array.from({ length: 8 }, () => 'join(pad(1,31),",")').join(',').replace(/^/, 'cat(') + '))';
    expect(busy.length).toBeLessThanOrEqual(EXPR_LIMITS.sourceChars);
    expect(fails(busy).message).toMatch(/the most is 64/);
  });
});
