/**
 * What the rooms hold on disk, counted so that budgets can refuse a write before it is made: in
 * all (limits.diskBytes) and per source address (limits.addressBytes, never more than a quarter
 * of diskBytes: one device, with as many seats as it likes, cannot spend the server's quota; once
 * did, in 57 s, and the honest class's events and a new class's first event were refused until
 * rooms expired). A seat's bytes count for the address that took it (older seats without one:
 * for the room's creator).
 *
 * Each record counts as `diskBound(key, value)`: the UTF-8 bytes of its key and value plus
 * RECORD_OVERHEAD_BYTES. LevelDB keeps a record at rest in a table (a block is snappy-compressed
 * only when that saves 1/8 or more, so never larger than the raw bytes) with at most 23 bytes of
 * its own (the key's sequence and type, 8; three varint lengths, up to 15) and a share of its
 * block's restart points, trailer and index; its write-ahead log holds the same bytes with fewer
 * extras until it is compacted. A seat's record is rewritten with every event and answer, and
 * each rewrite counts too, until compaction drops the old copies. So the count is at least what
 * the data holds at rest (docs/ROOM.md, "Limits", has the measurement; JSON compresses, so it is
 * usually several times more); during a compaction LevelDB briefly keeps the old tables beside
 * the new ones, so the operator gives diskBytes as at most half the free space.
 */
export const RECORD_OVERHEAD_BYTES = 32;

export function diskBound(key: string, value: string): number {
  return Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8') + RECORD_OVERHEAD_BYTES;
}

export class DiskUse {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  /** Bytes counted on the whole server. */
  get bytes(): number {
    return this.total;
  }

  /** Bytes counted for one address. */
  of(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Count `bytes` more (or, negative, fewer) for `address`. */
  add(address: string, bytes: number): void {
    this.total += bytes;
    const n = (this.byAddress.get(address) ?? 0) + bytes;
    if (n > 0) this.byAddress.set(address, n);
    else this.byAddress.delete(address);
  }
}
