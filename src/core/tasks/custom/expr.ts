/**
 * The task language's expressions: a lexer and a Pratt parser (precedence climbing), written
 * here so that no task definition ever reaches `eval` or `Function`. The grammar (docs/TASKS.md):
 *
 *   expr    := prefix (infix expr)*          binding powers below, all left-associative
 *   prefix  := integer | "text" | name | name '(' args ')' | '(' expr ')' | '-' prefix | '!' prefix
 *   infix   := '||' 1 | '&&' 2 | '==' '!=' 3 | '<' '<=' '>' '>=' 4 | '+' '-' 5 | '*' '/' '%' 6
 *
 * Every error is an ExprError carrying the 0-based character position it was found at; nothing
 * else is ever thrown (expr.fuzz.test.ts). The source length and the nesting depth are bounded,
 * so parsing costs at most linear time and a bounded stack.
 */

/** The one error the language throws: a plain-words message and where in the source it arose. */
export class ExprError extends Error {
  constructor(message: string, readonly position: number) {
    super(message);
    this.name = 'ExprError';
  }
}

export const EXPR_LIMITS = Object.freeze({
  /** Characters in one expression's source. */
  sourceChars: 300,
  /** Nested brackets, calls and prefix operators. */
  depth: 32,
  /** Evaluation steps (one per node visited, builtins count their work) per evaluation. */
  steps: 5000,
  /** Characters in any text value built while evaluating. */
  textChars: 64,
});

export type Node =
  | { type: 'int'; value: number; pos: number }
  | { type: 'text'; value: string; pos: number }
  | { type: 'var'; name: string; pos: number }
  | { type: 'unary'; op: '-' | '!'; arg: Node; pos: number }
  | { type: 'binary'; op: BinaryOp; left: Node; right: Node; pos: number }
  | { type: 'call'; name: string; args: Node[]; pos: number };

export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

const POWER: Record<BinaryOp, number> = {
  '||': 1, '&&': 2, '==': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6,
};

type Token =
  | { kind: 'int'; value: number; pos: number }
  | { kind: 'text'; value: string; pos: number }
  | { kind: 'name'; value: string; pos: number }
  | { kind: 'op'; value: string; pos: number }
  | { kind: 'end'; pos: number };

const OPS = ['||', '&&', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '(', ')', ','];

/** Printable ASCII a text literal may hold (no quote: literals have no escapes). */
const TEXT_CHAR = /^[\x20-\x21\x23-\x7e]$/;

/** Where a character is first shown to a reader: the character itself, or its code point. */
export function showChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code >= 0x21 && code <= 0x7e ? `'${ch}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what it shows
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu;

/**
 * `text` as a message may quote it: control, invisible and bidirectional characters written as
 * their code points (<U+202E>), so a refused title cannot make the refusal around it read reversed.
 */
export function visibleText(text: string): string {
  return text.replace(UNSEEN, (ch) => `<${showChar(ch)}>`);
}

export function tokenize(source: string): Token[] {
  if (source.length > EXPR_LIMITS.sourceChars) {
    throw new ExprError(`the expression has ${source.length} characters; the most is ${EXPR_LIMITS.sourceChars}`, EXPR_LIMITS.sourceChars);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (ch === ' ') { i++; continue; }
    if (ch >= '0' && ch <= '9') {
      let j = i;
      while (j < source.length && source[j] >= '0' && source[j] <= '9') j++;
      const digits = source.slice(i, j);
      const value = Number(digits);
      if (digits.length > 16 || !Number.isSafeInteger(value)) {
        throw new ExprError(`the number ${digits.slice(0, 20)} at position ${i} is beyond ${Number.MAX_SAFE_INTEGER}`, i);
      }
      tokens.push({ kind: 'int', value, pos: i });
      i = j;
      continue;
    }
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_') {
      let j = i;
      while (j < source.length && /[A-Za-z0-9_]/.test(source[j])) j++;
      tokens.push({ kind: 'name', value: source.slice(i, j), pos: i });
      i = j;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') {
        if (!TEXT_CHAR.test(source[j])) throw new ExprError(`character ${showChar(source[j])} at position ${j} is not allowed in text`, j);
        j++;
      }
      if (j >= source.length) throw new ExprError(`the text starting at position ${i} has no closing '"'`, i);
      tokens.push({ kind: 'text', value: source.slice(i + 1, j), pos: i });
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => source.startsWith(o, i));
    if (!op) throw new ExprError(`character ${showChar(ch)} at position ${i} is not part of the language`, i);
    tokens.push({ kind: 'op', value: op, pos: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', pos: source.length });
  return tokens;
}

/** The syntax tree of `source`, or an ExprError with the position of the first problem. */
export function parseExpr(source: string): Node {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (t: Token, value: string) => t.kind === 'op' && t.value === value;
  const describe = (t: Token) => (t.kind === 'end' ? 'the end' : `'${String(t.value)}'`);
  const expectOp = (value: string) => {
    const t = peek();
    if (t.kind !== 'op' || t.value !== value) throw new ExprError(`expected '${value}' at position ${t.pos}, found ${describe(t)}`, t.pos);
    at++;
  };

  const prefix = (depth: number): Node => {
    if (depth > EXPR_LIMITS.depth) throw new ExprError(`the expression nests deeper than ${EXPR_LIMITS.depth} at position ${peek().pos}`, peek().pos);
    const t = tokens[at++];
    switch (t.kind) {
      case 'int': return { type: 'int', value: t.value, pos: t.pos };
      case 'text': return { type: 'text', value: t.value, pos: t.pos };
      case 'name': {
        const next = peek();
        if (next.kind === 'op' && next.value === '(') {
          at++;
          const args: Node[] = [];
          if (!isOp(peek(), ')')) {
            for (;;) {
              args.push(expr(0, depth + 1));
              const sep = peek();
              if (sep.kind === 'op' && sep.value === ',') { at++; continue; }
              break;
            }
          }
          expectOp(')');
          return { type: 'call', name: t.value, args, pos: t.pos };
        }
        return { type: 'var', name: t.value, pos: t.pos };
      }
      case 'op':
        if (t.value === '(') {
          const inner = expr(0, depth + 1);
          expectOp(')');
          return inner;
        }
        if (t.value === '-' || t.value === '!') return { type: 'unary', op: t.value, arg: prefix(depth + 1), pos: t.pos };
        throw new ExprError(`unexpected '${t.value}' at position ${t.pos}`, t.pos);
      case 'end':
        throw new ExprError(`the expression ends too early at position ${t.pos}`, t.pos);
    }
  };

  const expr = (minPower: number, depth: number): Node => {
    let left = prefix(depth);
    for (;;) {
      const t = peek();
      if (t.kind !== 'op' || !(t.value in POWER)) break;
      const power = POWER[t.value as BinaryOp];
      if (power <= minPower) break;
      at++;
      const right = expr(power, depth + 1);
      left = { type: 'binary', op: t.value as BinaryOp, left, right, pos: t.pos };
    }
    return left;
  };

  if (source.trim() === '') throw new ExprError('the expression is empty', 0);
  const tree = expr(0, 0);
  const rest = peek();
  if (rest.kind !== 'end') throw new ExprError(`unexpected ${describe(rest)} at position ${rest.pos}`, rest.pos);
  return tree;
}

/** The variable names an expression reads. */
export function freeNames(node: Node, out = new Set<string>()): Set<string> {
  if (node.type === 'var') out.add(node.name);
  else if (node.type === 'unary') freeNames(node.arg, out);
  else if (node.type === 'binary') { freeNames(node.left, out); freeNames(node.right, out); }
  else if (node.type === 'call') for (const a of node.args) freeNames(a, out);
  return out;
}
