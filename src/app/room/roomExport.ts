/**
 * A class room as one run file (version 2 with `seeds`, share/bundle.ts): every run of the class
 * with an RL step (a seat's, or in a paired room a pair's: classRecords.ts), its 'done' whole, so
 * the file opens as seeds (bands and claims over the runs) and each run in it is what the runner
 * would have saved. Pure: the page downloads the text.
 */
import { MAX_BUNDLE_CHARS, megabytes, serializeSeedsBundle } from '../../share/bundle';
import type { RoomInfo } from '../../room/protocol';
import type { ClassRun } from './classRecords';

export type RoomFile = { ok: true; name: string; text: string } | { ok: false; problem: string };

export function roomRunFile(info: Pick<RoomInfo, 'id' | 'name' | 'preset' | 'pairing'>, runs: readonly ClassRun[], createdAt?: Date): RoomFile {
  if (runs.length === 0) return { ok: false, problem: 'No browser has trained an RL step yet: nothing to export.' };
  const unit = info.pairing ? 'pair' : 'browser';
  const text = serializeSeedsBundle(
    runs.map((r) => r.record),
    `${info.name}: ${runs.length} ${unit}${runs.length === 1 ? '' : 's'}`,
    { preset: info.preset ?? undefined, createdAt },
  );
  if (text.length > MAX_BUNDLE_CHARS) return { ok: false, problem: `The room's runs make ${megabytes(text.length)}, more than a run file holds (${megabytes(MAX_BUNDLE_CHARS)}).` };
  return { ok: true, name: `cohort-lab-room-${info.id.slice(0, 6)}.json`, text };
}
