/**
 * Text from a file or a user, made safe to print to a terminal: control characters (ESC, BEL,
 * CR, ... which could set the terminal's title, clear the screen or overwrite a line) and
 * invisible or bidirectional characters (which could make a refusal read reversed) are written
 * as escapes such as \x1b and \u202e. A line break stays one unless `oneLine`.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it escapes
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
// eslint-disable-next-line no-control-regex -- as above, with the line break
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function terminalText(text: string, oneLine = false): string {
  return text.replace(oneLine ? UNSAFE_ONE_LINE : UNSAFE, escape);
}
