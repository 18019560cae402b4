/**
 * A generator's prompt template: literal characters and {name} placeholders, e.g. "{a}+{b}=".
 * Braces only ever open and close a placeholder; a variable's value is written in decimal
 * (a leading '-' when negative).
 */
import { ExprError, visibleText } from './expr';

export type TemplatePart = { literal: string } | { name: string; pos: number };

export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '}') throw new ExprError(`the template has a '}' at position ${i} without its '{'`, i);
    if (ch !== '{') { literal += ch; continue; }
    const close = template.indexOf('}', i);
    if (close < 0) throw new ExprError(`the template's '{' at position ${i} is never closed`, i);
    const name = template.slice(i + 1, close);
    if (!/^[a-z][a-z0-9_]{0,11}$/.test(name)) throw new ExprError(`the template's placeholder at position ${i} should be a variable name, got "{${visibleText(name.slice(0, 20))}}"`, i);
    if (literal) parts.push({ literal });
    literal = '';
    parts.push({ name, pos: i });
    i = close;
  }
  if (literal) parts.push({ literal });
  return parts;
}

export function fillTemplate(parts: readonly TemplatePart[], env: Readonly<Record<string, number>>): string {
  let out = '';
  for (const p of parts) out += 'literal' in p ? p.literal : String(env[p.name]);
  return out;
}

/** Characters of a decimal integer in [min, max] at its widest. */
export function widestValue(min: number, max: number): number {
  return Math.max(String(min).length, String(max).length);
}
