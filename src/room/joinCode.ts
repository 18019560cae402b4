/**
 * A room's short join code: six characters a student types on the lab's address (no 0/O, 1/I/L:
 * read aloud or from a projector without doubt), derived from the room's id, so the page that
 * knows the id shows it and the room server finds the room by it without storing anything more.
 * The code is only a way to find a live room: it leads nowhere once the room is closed or has
 * expired, the server answers look-ups at a bounded rate per address, and it refuses a new room
 * whose code an open room already has. About 29.7 bits: guessing one among a few live rooms at
 * the server's rate is hopeless, and a room a stranger should not enter can be locked.
 */

export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 6;

/** FNV-1a, 32 bits, of the id's UTF-16 code units (the id is random: any even spread will do). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The join code of room `id`. */
export function joinCodeOf(id: string): string {
  let h = fnv1a(id);
  let out = '';
  for (let i = 0; i < JOIN_CODE_LENGTH; i++) {
    out += JOIN_CODE_ALPHABET[h % JOIN_CODE_ALPHABET.length];
    h = Math.floor(h / JOIN_CODE_ALPHABET.length);
  }
  return out;
}

/** A code as typed (any case, spaces or dashes between) made canonical; null when it cannot be one. */
export function readJoinCode(typed: string): string | null {
  if (typed.length > 32) return null;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== JOIN_CODE_LENGTH) return null;
  for (const c of code) if (!JOIN_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** The code as shown: two groups of three ("K7Q 3MX"). */
export const showJoinCode = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;
