/**
 * What checking a generator costs, known before any problem is made, and how many distinct
 * prompts its template can make, proven or counted. Both are exact bounds, not timings, so a
 * check is refused or accepted the same way on every machine and under any load.
 *
 * Work is counted in the evaluator's own steps (evaluate.ts): one per node visited, and for a
 * builtin call, the characters of its first argument (what `spend` charges). The language has no
 * loops or recursion, so one evaluation visits each node at most once, and every text value is
 * at most EXPR_LIMITS.textChars long (checked before it is built). So the steps of one
 * evaluation are at most the nodes plus, per call, the longest text its first argument can be:
 * `ruleSteps` below, never below what `evaluate` spends (cost.test.ts checks it on every
 * builtin). A problem costs its rules' steps plus one per template part filled.
 */
import { EXPR_LIMITS, type Node } from './expr';
import { widestValue, type TemplatePart } from './template';

/** The most steps one check of a task may spend: a few tenths of a second of Node on one core (docs/TASKS.md), the same count on every machine. */
export const CHECK_LIMITS = Object.freeze({ work: 1_500_000 });

type Ranges = Readonly<Record<string, { min: number; max: number }>>;

/** Characters of the longest number a value can be: a '-' and 16 digits (safe integers). */
const NUMBER_CHARS = 17;

/** The longest text `str(value)` can have for `node`'s value: an upper bound, at most EXPR_LIMITS.textChars. */
export function longestText(node: Node, vars: Ranges): number {
  return Math.min(EXPR_LIMITS.textChars, longest(node, vars));
}

function longest(node: Node, vars: Ranges): number {
  switch (node.type) {
    case 'int': return String(node.value).length;
    case 'text': return node.value.length;
    case 'var': {
      const r = Object.hasOwn(vars, node.name) ? vars[node.name] : undefined;
      return r ? widestValue(r.min, r.max) : NUMBER_CHARS;
    }
    case 'unary': return node.op === '!' ? 1 : NUMBER_CHARS;
    case 'binary': return ['||', '&&', '==', '!=', '<', '<=', '>', '>='].includes(node.op) ? 1 : NUMBER_CHARS;
    case 'call': {
      const first = node.args[0];
      switch (node.name) {
        case 'if': return node.args.length === 3 ? Math.max(longestText(node.args[1], vars), longestText(node.args[2], vars)) : EXPR_LIMITS.textChars;
        case 'str': case 'reverse': case 'sort': return first ? longestText(first, vars) : EXPR_LIMITS.textChars;
        case 'digits': return NUMBER_CHARS - 1;
        case 'at': return 1;
        case 'min': case 'max': case 'abs': case 'num': case 'len': case 'digitsum': case 'count': return NUMBER_CHARS;
        default: return EXPR_LIMITS.textChars;
      }
    }
  }
}

/**
 * The most steps one evaluation of `node` can spend (evaluate.ts), capped where an evaluation
 * stops with an error: past EXPR_LIMITS.steps by at most one builtin's charge (a text's length).
 */
export function ruleSteps(node: Node, vars: Ranges): number {
  return Math.min(EXPR_LIMITS.steps + EXPR_LIMITS.textChars, steps(node, vars));
}

function steps(node: Node, vars: Ranges): number {
  switch (node.type) {
    case 'int': case 'text': case 'var': return 1;
    case 'unary': return 1 + steps(node.arg, vars);
    case 'binary': return 1 + steps(node.left, vars) + steps(node.right, vars);
    case 'call': {
      if (node.name === 'if' && node.args.length === 3) {
        return 1 + steps(node.args[0], vars) + Math.max(steps(node.args[1], vars), steps(node.args[2], vars));
      }
      const args = node.args.reduce((n, a) => n + steps(a, vars), 0);
      return 1 + args + (node.args[0] ? longestText(node.args[0], vars) : 0);
    }
  }
}

/** Characters a variable's decimal text can never hold: a prompt's value ends where one of these starts. */
const NOT_IN_A_NUMBER = /[^0-9-]/;

/**
 * Whether every assignment of the variables makes its own prompt, proven from the template: a
 * value is written in decimal, so it is read back from the prompt when its width is fixed (every
 * value in its range has as many characters) or when a character that no number holds (not a
 * digit or '-') follows it before the next value of varying width. Then the values, and so the
 * problem, are read back from the prompt alone: no two problems share a prompt. When this says
 * false, two may ("{a}{b}=" writes a=1, b=23 and a=12, b=3 both as "123="), and the prompts are
 * counted one by one instead.
 */
export function promptsAreDistinct(parts: readonly TemplatePart[], vars: Ranges): boolean {
  const fixed = (name: string) => {
    // Widths only grow with |value|, so a range on one side of 0 has one width when its ends do;
    // a range across 0 holds -1 and 0, of two widths.
    const r = vars[name];
    return (r.min >= 0 || r.max < 0) && String(r.min).length === String(r.max).length;
  };
  let open = false; // a value of varying width still waits for its delimiter
  for (const p of parts) {
    if ('literal' in p) {
      if (NOT_IN_A_NUMBER.test(p.literal)) open = false;
      continue;
    }
    if (!Object.hasOwn(vars, p.name)) return false;
    if (fixed(p.name)) continue;
    if (open) return false;
    open = true;
  }
  return true;
}
