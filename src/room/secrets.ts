/**
 * The secrets a page keeps for a room: the presenter's key, or a student's seat (index and token).
 * They live in the injected storage (localStorage) keyed by room id, never in a URL, so a reload
 * or a rejoin takes the same role and seat. What is read back is checked (another tab or a hand
 * edit may have written it): a damaged entry reads as none.
 */
import { z } from '../core/zod';
import { ROOM_LIMITS, SecretSchema } from './protocol';

/** The part of localStorage the client uses. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** What the secrets store holds for one room. */
const RoomSecretsSchema = z.object({
  key: SecretSchema.optional(),
  seat: z.object({ index: z.number().int().min(0).max(ROOM_LIMITS.seats - 1), token: SecretSchema }).optional(),
});
export type RoomSecrets = z.infer<typeof RoomSecretsSchema>;

export const secretsKey = (room: string) => `cohort-lab:room:${room}`;

/** The secrets kept for a room (a damaged entry reads as none). */
export function readSecrets(storage: KeyValueStore | null, room: string): RoomSecrets {
  try {
    const raw = storage?.getItem(secretsKey(room));
    if (!raw) return {};
    const parsed = RoomSecretsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function writeSecrets(storage: KeyValueStore | null, room: string, secrets: RoomSecrets): void {
  try {
    storage?.setItem(secretsKey(room), JSON.stringify(secrets));
  } catch {
    // A full or refused storage: the seat is only kept for this page's life.
  }
}
