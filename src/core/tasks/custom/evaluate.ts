/**
 * The task language's evaluator. Values are integers (JavaScript numbers kept within
 * ±(2^53 - 1): any result beyond is an error, never a rounded number) and short texts. Division
 * floors (7 / 2 = 3, -7 / 2 = -4) and % takes the sign of the divisor (-7 % 3 = 2), so
 * a = (a / b) * b + a % b always holds; dividing by 0 is an error. Comparisons, && and || give
 * 1 or 0; a value is true when it is a non-zero number or a non-empty text.
 *
 * Evaluation is bounded: each node visited is a step, builtins count their work, and no text
 * grows past EXPR_LIMITS.textChars (checked before it is built), so an expression written to be
 * slow or to build a huge string stops with an ExprError naming the limit.
 */
import { EXPR_LIMITS, ExprError, type Node } from './expr';

export type Value = number | string;
export type Env = Readonly<Record<string, number>>;

export interface Budget {
  steps: number;
}

function spend(budget: Budget, n: number, pos: number): void {
  budget.steps += n;
  if (budget.steps > EXPR_LIMITS.steps) throw new ExprError(`the expression takes more than ${EXPR_LIMITS.steps} steps (at position ${pos})`, pos);
}

function int(x: number, pos: number): number {
  if (!Number.isSafeInteger(x)) throw new ExprError(`a result at position ${pos} is beyond ±${Number.MAX_SAFE_INTEGER}`, pos);
  return x === 0 ? 0 : x; // no -0
}

function text(s: string, pos: number): string {
  if (s.length > EXPR_LIMITS.textChars) throw new ExprError(`a text at position ${pos} would have ${s.length} characters; the most is ${EXPR_LIMITS.textChars}`, pos);
  return s;
}

/** A length checked before the text of that length is built. */
function room(length: number, pos: number): void {
  if (length > EXPR_LIMITS.textChars) throw new ExprError(`a text at position ${pos} would have ${length} characters; the most is ${EXPR_LIMITS.textChars}`, pos);
}

function num(v: Value, pos: number, what: string): number {
  if (typeof v !== 'number') throw new ExprError(`${what} at position ${pos} needs a number, got the text "${v}"`, pos);
  return v;
}

/** Text of a value: numbers in decimal. */
function str(v: Value): string {
  return typeof v === 'number' ? String(v) : v;
}

function truthy(v: Value): boolean {
  return typeof v === 'number' ? v !== 0 : v.length > 0;
}

/** Floor division and its remainder, exact for every safe integer (BigInt, not float division). */
function floorDiv(a: number, b: number, pos: number): [number, number] {
  if (b === 0) throw new ExprError(`division by zero at position ${pos}`, pos);
  const A = BigInt(a);
  const B = BigInt(b);
  let q = A / B;
  let r = A % B;
  if (r !== 0n && (r < 0n) !== (B < 0n)) {
    q -= 1n;
    r += B;
  }
  return [int(Number(q), pos), int(Number(r), pos)];
}

/** name -> [fewest args, most args]; docs/TASKS.md says what each does. */
export const BUILTINS: Readonly<Record<string, [number, number]>> = Object.freeze({
  min: [1, 8], max: [1, 8], abs: [1, 1], if: [3, 3],
  str: [1, 1], num: [1, 1], len: [1, 1], digits: [1, 1], digitsum: [1, 1],
  reverse: [1, 1], sort: [1, 1], count: [2, 2], join: [2, 2], cat: [1, 8], pad: [2, 3], at: [2, 2],
});

function call(node: Extract<Node, { type: 'call' }>, env: Env, budget: Budget): Value {
  const arity = Object.prototype.hasOwnProperty.call(BUILTINS, node.name) ? BUILTINS[node.name] : undefined;
  const { pos } = node;
  if (!arity) throw new ExprError(`unknown function '${node.name}' at position ${pos}`, pos);
  const [lo, hi] = arity;
  if (node.args.length < lo || node.args.length > hi) {
    const want = lo === hi ? `${lo}` : `${lo} to ${hi}`;
    throw new ExprError(`${node.name} at position ${pos} takes ${want} argument${hi === 1 ? '' : 's'}, got ${node.args.length}`, pos);
  }
  if (node.name === 'if') {
    // Lazy: only the chosen branch is evaluated.
    return evalNode(truthy(evalNode(node.args[0], env, budget)) ? node.args[1] : node.args[2], env, budget);
  }
  const args = node.args.map((a) => evalNode(a, env, budget));
  const s0 = () => str(args[0]);
  spend(budget, s0().length, pos);
  switch (node.name) {
    case 'min': return Math.min(...args.map((a) => num(a, pos, 'min')));
    case 'max': return Math.max(...args.map((a) => num(a, pos, 'max')));
    case 'abs': return int(Math.abs(num(args[0], pos, 'abs')), pos);
    case 'str': return s0();
    case 'num': {
      const s = s0();
      if (!/^-?[0-9]{1,16}$/.test(s)) throw new ExprError(`num at position ${pos} cannot read "${s}" as an integer`, pos);
      return int(Number(s), pos);
    }
    case 'len': return s0().length;
    case 'digits': return String(Math.abs(num(args[0], pos, 'digits')));
    case 'digitsum': {
      const s = typeof args[0] === 'number' ? String(Math.abs(args[0])) : args[0];
      if (!/^[0-9]*$/.test(s)) throw new ExprError(`digitsum at position ${pos} needs digits, got "${s}"`, pos);
      let total = 0;
      for (const ch of s) total += Number(ch);
      return total;
    }
    case 'reverse': return s0().split('').reverse().join('');
    case 'sort': return s0().split('').sort().join('');
    case 'count': {
      const s = s0();
      const part = str(args[1]);
      if (part === '') throw new ExprError(`count at position ${pos} needs a non-empty text to count`, pos);
      return s.split(part).length - 1;
    }
    case 'join': {
      const s = s0();
      const sep = str(args[1]);
      room(s.length + Math.max(0, s.length - 1) * sep.length, pos);
      return s.split('').join(sep);
    }
    case 'cat': {
      const parts = args.map(str);
      room(parts.reduce((n, p) => n + p.length, 0), pos);
      return parts.join('');
    }
    case 'pad': {
      const s = s0();
      const width = num(args[1], pos, 'pad');
      const fill = args.length > 2 ? str(args[2]) : '0';
      if (fill.length !== 1) throw new ExprError(`pad at position ${pos} needs one fill character, got "${fill}"`, pos);
      room(Math.max(s.length, width), pos);
      return s.length >= width ? s : fill.repeat(width - s.length) + s;
    }
    case 'at': {
      const s = s0();
      const i = num(args[1], pos, 'at');
      const k = i < 0 ? s.length + i : i;
      if (k < 0 || k >= s.length) throw new ExprError(`at at position ${pos}: index ${i} is outside "${s}"`, pos);
      return s[k];
    }
  }
  throw new ExprError(`unknown function '${node.name}' at position ${pos}`, pos);
}

function evalNode(node: Node, env: Env, budget: Budget): Value {
  spend(budget, 1, node.pos);
  switch (node.type) {
    case 'int': return node.value;
    case 'text': return text(node.value, node.pos);
    case 'var': {
      if (!Object.prototype.hasOwnProperty.call(env, node.name)) throw new ExprError(`unknown name '${node.name}' at position ${node.pos}`, node.pos);
      return env[node.name];
    }
    case 'unary': {
      const v = evalNode(node.arg, env, budget);
      return node.op === '!' ? (truthy(v) ? 0 : 1) : int(-num(v, node.pos, "'-'"), node.pos);
    }
    case 'call': return call(node, env, budget);
    case 'binary': {
      const { op, pos } = node;
      if (op === '&&') return truthy(evalNode(node.left, env, budget)) && truthy(evalNode(node.right, env, budget)) ? 1 : 0;
      if (op === '||') return truthy(evalNode(node.left, env, budget)) || truthy(evalNode(node.right, env, budget)) ? 1 : 0;
      const a = evalNode(node.left, env, budget);
      const b = evalNode(node.right, env, budget);
      if (op === '==' || op === '!=') {
        const same = typeof a === typeof b && a === b;
        return (op === '==') === same ? 1 : 0;
      }
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        if (typeof a !== typeof b) throw new ExprError(`'${op}' at position ${pos} compares a number with a text`, pos);
        const c = a < b ? -1 : a > b ? 1 : 0;
        return (op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0) ? 1 : 0;
      }
      const x = num(a, pos, `'${op}'`);
      const y = num(b, pos, `'${op}'`);
      switch (op) {
        case '+': return int(x + y, pos);
        case '-': return int(x - y, pos);
        case '*': return int(x * y, pos);
        case '/': return floorDiv(x, y, pos)[0];
        case '%': return floorDiv(x, y, pos)[1];
      }
    }
  }
  throw new ExprError(`cannot evaluate the expression at position ${(node as Node).pos}`, (node as Node).pos);
}

/**
 * The value of a parsed expression with the template's variables bound; throws only ExprError.
 * `budget.steps` counts the steps spent (cost.test.ts holds them to cost.ts's bound).
 */
export function evaluate(node: Node, env: Env, budget: Budget = { steps: 0 }): Value {
  return evalNode(node, env, budget);
}

/** Every function name an expression calls that the language does not know, with positions. */
export function unknownCalls(node: Node, out: { name: string; pos: number }[] = []): { name: string; pos: number }[] {
  if (node.type === 'call') {
    if (!Object.prototype.hasOwnProperty.call(BUILTINS, node.name)) out.push({ name: node.name, pos: node.pos });
    for (const a of node.args) unknownCalls(a, out);
  } else if (node.type === 'unary') unknownCalls(node.arg, out);
  else if (node.type === 'binary') { unknownCalls(node.left, out); unknownCalls(node.right, out); }
  return out;
}
