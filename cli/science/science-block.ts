/**
 * The block of a markdown file that quotes `npm run science` verdicts:
 *   <!-- science:KEY -->
 *   ```
 *   one verdict per line
 *   ```
 *   <!-- /science:KEY -->
 * Pure string functions, so docs/RESULTS.md and the CLI's output can be compared word for word.
 */
const open = (key: string) => `<!-- science:${key} -->`;
const close = (key: string) => `<!-- /science:${key} -->`;

/** The verdict lines quoted in `text`'s block `key`, or null when there is no such block. */
export function readBlock(text: string, key: string): string[] | null {
  const start = text.indexOf(open(key));
  const end = text.indexOf(close(key));
  if (start < 0 || end < start) return null;
  return text
    .slice(start + open(key).length, end)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '' && !l.startsWith('```'));
}

/**
 * `text` with block `key` replaced by `lines`. A block that is not there yet goes right after the
 * block `after` when that one is there (a Holm block beside its verdict block), else at the end.
 * `fenced` false writes the lines as they are (a markdown table), not in a code fence.
 */
export function replaceBlock(text: string, key: string, lines: string[], opts: { after?: string; fenced?: boolean } = {}): string {
  const body = opts.fenced === false ? lines.join('\n') : `\`\`\`\n${lines.join('\n')}\n\`\`\``;
  const block = `${open(key)}\n${body}\n${close(key)}`;
  const start = text.indexOf(open(key));
  const end = text.indexOf(close(key));
  if (start >= 0 && end >= start) return text.slice(0, start) + block + text.slice(end + close(key).length);
  const afterEnd = opts.after === undefined ? -1 : text.indexOf(close(opts.after));
  if (afterEnd >= 0) {
    const at = afterEnd + close(opts.after!).length;
    return `${text.slice(0, at)}\n\n${block}${text.slice(at)}`;
  }
  return `${text.trimEnd()}\n\n${block}\n`;
}
