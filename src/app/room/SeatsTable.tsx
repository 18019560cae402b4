/**
 * A room's seats as the presenter (and a student) sees them: index, seed, connection, step, done;
 * in a paired room also the pair (seats 2k and 2k+1: one run of the peer arm, classRecords.ts),
 * its partner level (a room of several: "A with partner S"), the member the seat trains and its
 * partner's seat, or that it trains both members alone.
 *
 * The presenter's page also holds the teacher's controls: lock the room to new
 * students (or unlock it), and remove a seat (asked first, in the row: the student is disconnected
 * and told, the seat is freed for the next join).
 */
import { useState } from 'react';
import { runsByLevel } from '../../room/levels';
import type { RoomInfo } from '../../room/protocol';
import { useLab } from '../store';
import { pairOf } from './classRecords';
import { hasLevels, levelShort } from './levelWords';
import { room } from './roomController';
import { connectedCount, seatConnected } from './seatConnection';

/** The presenter's controls show on the presenter's page of a room that is online and not closed. */
function usePresenterControls(info: RoomInfo): boolean {
  return useLab((s) => s.room.role === 'presenter' && s.room.status === 'online') && info.status !== 'closed';
}

function LockToggle({ info }: { info: RoomInfo }) {
  return (
    <p className="room-lock">
      <button type="button" data-testid="room-lock" aria-pressed={info.locked} onClick={() => room.setLocked(!info.locked)}>
        {info.locked ? 'Unlock' : 'Lock to new students'}
      </button>{' '}
      <span className="sub" data-testid="room-lock-state">
        {info.locked ? 'Locked: no new student can join; students already seated can still come back.' : 'Open: anyone with the link can join.'}
      </span>
    </p>
  );
}

/** A seat's Remove, asked first in the row (no browser dialog: the projector shows the question). */
function RemoveSeat({ seat, memberPart }: { seat: number; memberPart: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" data-testid="room-seat-remove" aria-label={`Remove seat ${seat}`} onClick={() => setAsking(true)}>
        Remove
      </button>
    );
  return (
    <span role="group" aria-label={`Remove seat ${seat}?`}>
      Remove seat {seat}? Its browser leaves the room{' '}
      {memberPart ? "(its part of its pair's run stops; a student who joins soon takes the seat and goes on with the partner, or else the partner trains both members alone)" : '(its run goes on there alone)'} and the seat is freed.{' '}
      <button
        type="button"
        data-testid="room-seat-remove-confirm"
        onClick={() => {
          setAsking(false);
          room.removeSeat(seat);
        }}
      >
        Remove seat {seat}
      </button>{' '}
      <button type="button" data-testid="room-seat-remove-cancel" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </span>
  );
}

/** `mine`: this student's seat; `mineStep`: its own run's step, newer than the room's word for it. */
export function SeatsTable({ info, mine, mineStep = 0 }: { info: RoomInfo; mine?: number | null; mineStep?: number }) {
  const controls = usePresenterControls(info);
  // The server's word on connections is stale while this page cannot reach it (seatConnection.ts).
  const online = useLab((s) => s.room.status === 'online');
  // A room of several partner levels (the overlap preset): each pair's (or unpaired seat's) level has a column.
  const levels = runsByLevel(info) && hasLevels(info.spec);
  if (info.seats.length === 0)
    return (
      <>
        {controls && <LockToggle info={info} />}
        <p data-testid="room-no-seats">No browser has joined yet.</p>
      </>
    );
  return (
    <div className="table-scroll">
      {controls && <LockToggle info={info} />}
      <table className="room-seats" data-testid="room-seats">
        <caption>
          {info.seats.length} browser{info.seats.length === 1 ? '' : 's'}, {connectedCount(info, online)}
          {info.seats.some((x) => x.done) ? `, ${info.seats.filter((x) => x.done).length} done` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">seat</th>
            {info.pairing && <th scope="col">pair</th>}
            <th scope="col">seed</th>
            {levels && <th scope="col">partner level</th>}
            {info.pairing && <th scope="col">member (partner)</th>}
            <th scope="col">connected</th>
            <th scope="col">step</th>
            <th scope="col">done</th>
            {controls && <th scope="col">remove</th>}
          </tr>
        </thead>
        <tbody>
          {info.seats.map((seat) => {
            const x = seat.index === mine && mineStep > seat.lastStep ? { ...seat, lastStep: mineStep } : seat;
            const link = seatConnected(x.connected, online, info.status === 'closed');
            return (
              <tr key={x.index} data-testid="room-seat" data-seat={x.index} data-pair={info.pairing ? pairOf(x.index) : undefined} data-level={x.level ?? undefined} data-alone={info.pairing ? (x.alone ?? false) : undefined} data-connected={link.known ? x.connected : 'unknown'} data-step={x.lastStep} data-done={x.done} className={x.index === mine ? 'mine' : undefined}>
                <th scope="row">
                  {x.index}
                  {x.index === mine ? ' (you)' : ''}
                </th>
                {info.pairing && <td>pair {pairOf(x.index)}</td>}
                <td className="num">{x.seed}</td>
                {levels && <td data-testid="room-seat-level">{x.level ? levelShort(info.spec, x.level) : '–'}</td>}
                {info.pairing && (
                  <td>
                    {x.alone ? `trains both alone (partner: ${x.partner === null ? 'none' : `seat ${x.partner}`})` : `${x.member === null ? '–' : `trains ${x.member}`} ${x.partner === null ? '(no partner yet)' : `(partner: seat ${x.partner})`}`}
                  </td>
                )}
                <td>{link.text}</td>
                <td className="num">
                  {x.lastStep} of {info.spec.steps}
                </td>
                <td>{x.done ? 'yes' : 'no'}</td>
                {controls && (
                  <td>
                    <RemoveSeat seat={x.index} memberPart={x.member !== null && !x.alone} />
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
