/**
 * Reading a file named on the command line, bounded: only a regular file is read (a device such
 * as /dev/zero reports 0 bytes and never ends; a pipe or a folder has no size to check), and at
 * most `maxBytes` + 1 bytes are read whatever its size said, so a file that grows while it is
 * read is refused too. Errors are UsageErrors in words.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './args';
import { terminalText } from './terminalText';

export function readBoundedFile(file: string, maxBytes: number, what: string): Buffer {
  const shown = terminalText(file);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new UsageError(`cannot read ${shown}: ${terminalText((e as Error).message.split('\n')[0])}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${shown} is not a regular file (a device, a pipe or a folder); ${what} is a file of at most ${maxBytes.toLocaleString('en')} bytes`);
    if (stat.size > maxBytes) throw new UsageError(`${shown} has ${stat.size} bytes; the most ${what} may have is ${maxBytes}`);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new UsageError(`${shown} has more than ${maxBytes} bytes; the most ${what} may have is ${maxBytes}`);
    }
    return buffer.subarray(0, length);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${shown}: ${terminalText((e as Error).message.split('\n')[0])}`);
  } finally {
    closeSync(fd);
  }
}
