/**
 * The Class region (class mode). A presenter: the room server's address, "pair
 * students", Create room, then the join link with Copy and its QR code, the seats, Start for
 * everybody, Close room and Export the room. A student: the room's status in words, the seat (its
 * seed; in a paired room its member and partner), and the class's seats. Every string from the
 * room is shown as text.
 */
import { useId, useMemo, useState } from 'react';
import { useLab } from '../store';
import { EDITED_EXPERIMENT, experimentTitle } from '../controls/presetTask';
import { joinCodeOf, showJoinCode } from '../../room/joinCode';
import { checkServerUrl, codeOrigin } from './roomLink';
import { RoomQr } from './RoomQr';
import { RoomStatusLine, roomWord } from './RoomStatusLine';
import { SeatsTable } from './SeatsTable';
import { connectedCount } from './seatConnection';
import { pairOf } from './classRecords';
import { hasLevels, levelPhrase, partnerWords, roomPlanWords } from './levelWords';
import { levelPair } from '../../room/levels';
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import { classProgress, partnerWaitWords } from './classProgress';
import { room } from './roomController';
import { setProjector } from './projectorActions';
import { seedsNote } from '../../room/roomSeeds';
import './room.css';

function CopyLink({ link }: { link: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Copied.');
    } catch {
      setCopied('Copying was refused: select the link and copy it.');
    }
  };
  return (
    <>
      <button type="button" data-testid="room-copy" onClick={() => void copy()}>
        Copy
      </button>
      {copied && <span role="status">{copied}</span>}
    </>
  );
}

/** Which seats' warm starts ship with the lab (their seeds are the preset's room seeds) and which warm-start first. */
function SeedsNote({ info }: { info: RoomInfo }) {
  const note = seedsNote(info);
  if (!note) return null;
  return (
    <p className={note.warmStartFirst.length > 0 || info.seeds?.length === 0 ? 'notice notice-warn' : 'sub'} data-testid="room-seeds-note" data-warm-start-first={note.warmStartFirst.join(',')}>
      {note.text}
    </p>
  );
}

/** A student on the lab's address: the room's join code from the projector, then Join. */
function JoinWithCode() {
  const [code, setCode] = useState('');
  const id = useId();
  return (
    <form
      className="room-code-join"
      data-testid="room-code-form"
      onSubmit={(e) => {
        e.preventDefault();
        void room.joinWithCode(code);
      }}
    >
      <label htmlFor={id}>Joining a class? Type the code on the projector:</label>{' '}
      <input id={id} data-testid="room-code" value={code} maxLength={12} autoComplete="off" autoCapitalize="characters" spellCheck={false} size={9} onChange={(e) => setCode(e.target.value)} />{' '}
      <button type="submit" className="primary" data-testid="room-code-join">
        Join
      </button>
    </form>
  );
}

export function Presenter() {
  const r = useLab((s) => s.room);
  const fieldId = useId();
  const checked = checkServerUrl(r.serverUrl);
  const inRoom = r.role === 'presenter';
  const running = r.info?.status === 'running';
  const closed = r.info?.status === 'closed' || r.status === 'closed';
  const projector = r.projector;
  const over = running && (r.info?.seats.length ?? 0) > 0 && r.info!.seats.every((x) => x.done);
  const draft = useLab((s) => s.draft);
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const experiment = useMemo(() => {
    const title = experimentTitle(draft, presetId, edited);
    return `${title === EDITED_EXPERIMENT ? 'an edited experiment' : title}, seed ${draft.seed}`;
  }, [draft, presetId, edited]);
  const plan = useMemo(() => roomPlanWords(draft, r.pairing), [draft, r.pairing]);
  return (
    <>
      {!inRoom && <JoinWithCode />}
      {!inRoom || closed ? (
        <div className="room-create">
          <label htmlFor={fieldId}>Room server</label>
          <input
            id={fieldId}
            type="url"
            data-testid="room-server"
            value={r.serverUrl}
            placeholder="ws://192.168.1.20:8787/room"
            aria-invalid={!checked.ok && r.serverUrl !== ''}
            aria-describedby={`${fieldId}-help`}
            onChange={(e) => room.setServerUrl(e.target.value)}
          />
          <p id={`${fieldId}-help`} className="sub">
            {checked.ok || r.serverUrl === '' ? 'Start it on this laptop with npm run room; students on the same Wi-Fi join through it.' : `Check the address: ${checked.problem}.`}
          </p>
          <label className="room-pairing">
            <input type="checkbox" data-testid="room-pairing" checked={r.pairing} onChange={(e) => room.setPairing(e.target.checked)} /> Pair students: two
            browsers train the peer arm's two members and teach each other through the room
          </label>
          <p data-testid="room-create-experiment">
            The room will run <strong>{experiment}</strong>: {plan}.
          </p>
          <button type="button" className="primary" data-testid="room-create" disabled={!checked.ok} onClick={() => room.create()}>
            Create room
          </button>
        </div>
      ) : null}
      {inRoom && <RoomStatusLine room={r} />}
      {inRoom && r.info && r.info.status !== 'open' && (
        <p className="room-progress" data-testid="room-progress">
          {classProgress(r.info)}
        </p>
      )}
      {inRoom && r.error && r.status !== 'offline' && r.status !== 'closed' && (
        <p className="notice notice-warn" data-testid="room-error">
          {r.error}
        </p>
      )}
      {!inRoom && r.error && (
        <p className="notice notice-warn" data-testid="room-error">
          {r.error}
        </p>
      )}
      {inRoom && r.link && !closed && (
        // Folded once the room runs, so the class's charts come back to the first screen; a
        // latecomer's link is one click away. (The key opens it again if the room is reopened.)
        <details className="room-join" open={!running} key={running ? 'running' : 'open'} data-testid="room-join">
          <summary>Join link and QR code</summary>
          {r.info?.locked ? (
            <p className="notice notice-warn" data-testid="room-join-locked">
              The room is locked to new students: this link seats nobody new until you unlock it.
            </p>
          ) : (
            <p>Students open this link (phones: scan the code). The experiment is locked while the room runs.</p>
          )}
          <div className="room-link-row">
            <input readOnly aria-label="Join link" data-testid="room-link" value={r.link} onFocus={(e) => e.target.select()} />
            <CopyLink link={r.link} />
          </div>
          {r.info && (
            <p data-testid="room-join-code">
              Or open {codeOrigin(r.link)} and type the code <strong className="room-code-shown">{showJoinCode(joinCodeOf(r.info.id))}</strong> (it leads nowhere once the room is closed).
            </p>
          )}
          <RoomQr link={r.link} />
        </details>
      )}
      {inRoom && r.info?.pairing && (
        <p className="sub" data-testid="room-pairs-note">
          Paired room: students are paired in the order they join (seats 0 and 1 are the first pair, seats 2 and 3 the next). Each of a pair trains one of the
          peer arm's two models and they exchange their answers every step; the class's charts and claims count one run per pair.
        </p>
      )}
      {inRoom && r.info && !r.info.pairing && hasLevels(r.info.spec) && (
        <p className="sub" data-testid="room-pairs-note">
          Partner levels: {roomPlanWords(r.info.spec, false)}, and trains both models itself. The class&apos;s charts and claims count one run per browser, and each
          adds one point to the overlap panel.
        </p>
      )}
      {inRoom && r.info && <SeedsNote info={r.info} />}
      {inRoom && r.info && <SeatsTable info={r.info} />}
      {inRoom && (
        <div className="room-actions">
          <button type="button" className="primary" data-testid="room-start" disabled={r.status !== 'online' || running || closed} onClick={() => room.startForEverybody()}>
            Start for everybody
          </button>
          {running && !closed && !over && (
            <button
              type="button"
              data-testid="room-end-now"
              disabled={r.status !== 'online'}
              title="Close the room now: the class's numbers are over the runs that have finished"
              onClick={() => room.endNow()}
            >
              End the run now
            </button>
          )}
          {(over || closed) && r.info && (
            <button type="button" data-testid="room-run-again" title="A new room for the same experiment, with seeds no one has trained yet; students join it with its new code" onClick={() => room.runAgain()}>
              Run again with new seeds
            </button>
          )}
          <button type="button" data-testid="room-close" disabled={r.status !== 'online' || closed} onClick={() => room.closeRoom()}>
            Close room
          </button>
          <button type="button" data-testid="room-export" disabled={r.results.length === 0} onClick={() => room.exportRoom()}>
            Export the room
          </button>
          {!projector && (
            <button type="button" data-testid="room-projector" title="The class on the whole window: the join code, then the class's charts and claims" onClick={() => setProjector(true)}>
              Projector view
            </button>
          )}
          <button type="button" data-testid="room-leave" onClick={() => room.leave()}>
            Leave
          </button>
        </div>
      )}
    </>
  );
}

/** A paired seat whose partner's seat was freed after its member part began: it waits a little for the next student, then trains alone. */
function NoPartner() {
  return (
    <p role="status" className="notice" data-testid="room-no-partner">
      No partner is in the seat beside you: your partner's seat was freed after your run began. If a classmate takes it soon, they train your partner's member with the
      same seed and get every answer so far; if none does, you train both models yourself from the start, and your run counts for the class.
    </p>
  );
}

/**
 * A paired seat's line: its pair and, in a room of several levels, its partner level in the
 * preset's words ("you train A with partner S (a sibling from its own seeds)"); its member and
 * partner's seat, or that it trains both members alone.
 */
function pairedSeatWords(info: RoomInfo, seat: SeatInfo): string {
  const pair = `, pair ${pairOf(seat.index)}`;
  const partnerSeat = seat.partner === null ? '(not joined yet)' : `at seat ${seat.partner}`;
  const exchange = 'each step your answers label theirs and theirs label yours';
  const level = seat.level && hasLevels(info.spec) ? levelPair(info.spec, seat.level) : null;
  if (!level) {
    if (seat.alone) return `${pair}: no partner, so you train both members of the peer arm yourself; your run counts for the class as your pair's`;
    return `${pair}: you train member ${seat.member} of the peer arm, your partner ${partnerSeat} trains the other; ${exchange}`;
  }
  const phrase = levelPhrase(info.spec, info.preset, level.arm.id);
  if (seat.alone) return `${pair}: no partner, so you train both ${phrase} yourself; your run counts for the class as your pair's`;
  const other = seat.member === level.anchor ? level.partner : level.anchor;
  const words = partnerWords(info.spec, info.preset, level.partner);
  const mine = seat.member === level.anchor ? phrase : `${level.partner}${words ? ` (${words})` : ''}, the partner of ${level.anchor}`;
  return `${pair}: you train ${mine}; your partner ${partnerSeat} trains ${other}; ${exchange}`;
}

/** A seat's line after "You are seat N, seed S": a paired seat's pair, or an unpaired seat's level in a room of levels. */
function seatWords(info: RoomInfo, seat: SeatInfo): string {
  if (seat.member !== null) return pairedSeatWords(info, seat);
  if (info.pairing || !seat.level || !hasLevels(info.spec)) return '';
  return `: you train ${levelPhrase(info.spec, info.preset, seat.level)}, both models yourself; your run adds one point to the class's question of partners`;
}

function Student() {
  const r = useLab((s) => s.room);
  const seat = r.seat;
  // This page's own run is ahead of what the room last said of its seat (the class feed leaves
  // a student's own events out): its row shows the run's step.
  const myStep = useLab((s) => (s.room.started ? (s.run.step ?? 0) : 0));
  // A partner is waited for only in a room this seat is still in (not removed, locked out or closed).
  const word = roomWord(r);
  const waits = word !== 'removed' && word !== 'locked-out' && word !== 'closed' && word !== 'left';
  return (
    <>
      <RoomStatusLine room={r} />
      {seat && (
        <p data-testid="room-seat-line">
          You are seat {seat.index}, seed {seat.seed}
          {r.info ? seatWords(r.info, seat) : ''}
          .
          {r.started ? ` Sent to the room: ${r.stream.acked} events.` : ''}
        </p>
      )}
      {waits && r.partnerWait && r.partnerWait.partner !== null && (
        <p role="status" className="notice" data-testid="room-partner-wait">
          {r.partnerWait.left ? `Your partner (seat ${r.partnerWait.partner}) left; the run waits for them to come back.` : `Waiting for your partner (seat ${r.partnerWait.partner})…`}
        </p>
      )}
      {waits && r.partnerWait && r.partnerWait.partner === null && <NoPartner />}
      {waits && r.partnerLeft && seat?.alone && !seat.done && (
        <p role="status" className="notice" data-testid="room-partner-left">
          Your partner left; you now train both models yourself, from the start with the same seed. Your run counts for the class as your pair's.
        </p>
      )}
      {waits && seat && r.info?.pairing && r.info.status === 'running' && !r.started && !seat.alone && seat.partner === null && (
        <p role="status" className="notice" data-testid="room-partner-coming">
          No classmate sits beside you yet. If none joins within {partnerWaitWords(r.info)}, you train both members of your pair yourself, and your run counts for the class.
        </p>
      )}
      {seat?.done && (
        <p role="status" className="notice" data-testid="room-class-over">
          Your run for the class is done and the room has all of it. The class run is over; a new run here is yours alone: it is not sent to the room.
        </p>
      )}
      {/* Folded: on a student's laptop the panel left the hero charts below the first screen. */}
      {r.info && (
        <details className="room-class-seats" data-testid="room-class-seats">
          <summary>
            The class: {r.info.seats.length} browser{r.info.seats.length === 1 ? '' : 's'}, {connectedCount(r.info, r.status === 'online')}
          </summary>
          <SeatsTable info={r.info} mine={seat?.index ?? null} mineStep={myStep} />
        </details>
      )}
      <button type="button" data-testid="room-leave" onClick={() => room.leave()}>
        Leave the room
      </button>
    </>
  );
}

export function RoomPanel() {
  const role = useLab((s) => s.room.role);
  const open = useLab((s) => s.room.panelOpen);
  const notice = useLab((s) => s.room.notice);
  const name = useLab((s) => s.room.info?.name ?? null);
  if (notice && role === null) {
    return (
      <div className="notices">
        <p role="status" className="notice notice-warn" data-testid="room-notice">
          {notice}
        </p>
      </div>
    );
  }
  if (role !== 'student' && !open) return null;
  return (
    <section id="class-room-panel" className={`room-panel${role === 'student' ? ' room-panel-student' : ''}`} role="region" aria-label="Class" data-testid="room-panel">
      <h2>Class room{name ? `: ${name}` : ''}</h2>
      {role === 'student' ? <Student /> : <Presenter />}
    </section>
  );
}
