/**
 * How a custom task's answers are compared (docs/TASKS.md, "Normalisation"): spaces at either end
 * are dropped, letters keep their case, and when every answer of the task is an integer, an
 * integer answer is read as a number, so "07", "+7" and "7" are one answer and "-0" is "0".
 * The same function canonicalises the truth and every sampled answer, so votes, rewards and
 * accuracy all compare canonical forms by string equality.
 */
export function normaliseAnswer(s: string, numeric: boolean): string | null {
  const t = s.trim();
  if (t === '') return null;
  if (numeric && /^[+-]?[0-9]+$/.test(t)) {
    const negative = t[0] === '-';
    const digits = t.replace(/^[+-]/, '').replace(/^0+(?=.)/, '');
    return negative && digits !== '0' ? `-${digits}` : digits;
  }
  return t;
}

/** Is `s` an integer as the numeric comparison reads one? */
export function isIntegerText(s: string): boolean {
  return /^[+-]?[0-9]+$/.test(s.trim());
}
