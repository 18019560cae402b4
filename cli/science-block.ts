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

/** `text` with block `key` replaced by `lines` (appended at the end when absent). */
export function replaceBlock(text: string, key: string, lines: string[]): string {
  const block = `${open(key)}\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n${close(key)}`;
  const start = text.indexOf(open(key));
  const end = text.indexOf(close(key));
  if (start < 0 || end < start) return `${text.trimEnd()}\n\n${block}\n`;
  return text.slice(0, start) + block + text.slice(end + close(key).length);
}
