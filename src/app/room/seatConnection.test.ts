import { describe, expect, it } from 'vitest';
import { connectedCount, seatConnected } from './seatConnection';

const seats = [{ connected: true }, { connected: false }, { connected: true }] as Parameters<typeof connectedCount>[0]['seats'];

describe("a seat's connection, as a page may say it", () => {
  it('online: the server\'s word, yes or no, and the count', () => {
    expect(seatConnected(true, true)).toEqual({ text: 'yes', known: true });
    expect(seatConnected(false, true)).toEqual({ text: 'no', known: true });
    expect(connectedCount({ seats }, true)).toBe('2 connected');
  });

  it('while the room server is unreachable: unknown, never the stale "yes"', () => {
    expect(seatConnected(true, false)).toEqual({ text: 'unknown: the room server is unreachable', known: false });
    expect(connectedCount({ seats }, false)).toBe('connections unknown while the room server is unreachable');
  });
});
