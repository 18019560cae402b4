/**
 * A room's seats as the presenter (and a student) sees them: index, seed, connection, step, done;
 * in a paired room also the pair (seats 2k and 2k+1: one run of the peer arm, classRecords.ts),
 * the member the seat trains and its partner's seat.
 */
import type { RoomInfo } from '../../room/protocol';
import { pairOf } from './classRecords';

/** `mine`: this student's seat; `mineStep`: its own run's step, newer than the room's word for it. */
export function SeatsTable({ info, mine, mineStep = 0 }: { info: RoomInfo; mine?: number | null; mineStep?: number }) {
  if (info.seats.length === 0) return <p data-testid="room-no-seats">No browser has joined yet.</p>;
  return (
    <div className="table-scroll">
      <table className="room-seats" data-testid="room-seats">
        <caption>
          {info.seats.length} browser{info.seats.length === 1 ? '' : 's'}, {info.seats.filter((x) => x.connected).length} connected
          {info.seats.some((x) => x.done) ? `, ${info.seats.filter((x) => x.done).length} done` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">seat</th>
            {info.pairing && <th scope="col">pair</th>}
            <th scope="col">seed</th>
            {info.pairing && <th scope="col">member (partner)</th>}
            <th scope="col">connected</th>
            <th scope="col">step</th>
            <th scope="col">done</th>
          </tr>
        </thead>
        <tbody>
          {info.seats.map((seat) => {
            const x = seat.index === mine && mineStep > seat.lastStep ? { ...seat, lastStep: mineStep } : seat;
            return (
              <tr key={x.index} data-testid="room-seat" data-seat={x.index} data-pair={info.pairing ? pairOf(x.index) : undefined} data-connected={x.connected} data-step={x.lastStep} data-done={x.done} className={x.index === mine ? 'mine' : undefined}>
                <th scope="row">
                  {x.index}
                  {x.index === mine ? ' (you)' : ''}
                </th>
                {info.pairing && <td>pair {pairOf(x.index)}</td>}
                <td className="num">{x.seed}</td>
                {info.pairing && (
                  <td>
                    {x.member === null ? '–' : `trains ${x.member}`} {x.partner === null ? '(no partner yet)' : `(partner: seat ${x.partner})`}
                  </td>
                )}
                <td>{x.connected ? 'yes' : 'no'}</td>
                <td className="num">
                  {x.lastStep} of {info.spec.steps}
                </td>
                <td>{x.done ? 'yes' : 'no'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
