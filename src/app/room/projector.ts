/**
 * The presenter's projector view of a room: on or off per room, remembered in this
 * browser (localStorage, keyed by the room's id) so a reload of the presenter's page, which
 * presents the room again, reopens the same view. Nothing else is kept; a browser that refuses
 * storage simply opens the normal page after a reload.
 */
import type { KeyValueStore } from '../../room/secrets';

const KEY = 'cohort-lab:projector:';

/** The room id of a join link (null: not a join link). */
export function roomIdOf(link: string | null): string | null {
  if (!link) return null;
  try {
    return new URL(link).searchParams.get('room');
  } catch {
    return null;
  }
}

export function projectorRemembered(store: KeyValueStore | null, roomId: string | null): boolean {
  if (!store || !roomId) return false;
  try {
    return store.getItem(KEY + roomId) === '1';
  } catch {
    return false;
  }
}

export function rememberProjector(store: KeyValueStore | null, roomId: string | null, on: boolean): void {
  if (!store || !roomId) return;
  try {
    if (on) store.setItem(KEY + roomId, '1');
    else store.removeItem(KEY + roomId);
  } catch {
    // Storage refused (private mode, full): the view is not remembered, nothing else changes.
  }
}
