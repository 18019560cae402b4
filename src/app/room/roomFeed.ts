/**
 * What arrives on the room connection, into the page: its status, the room made (its link in the
 * address bar and to share), the room's state (seats, status, the experiment), a student's seat,
 * the class's events (classResults.ts) and the acks of the seat's own.
 */
import type { RoomConnection } from '../../room/client';
import type { RoomInfo } from '../../room/protocol';
import { canonicalJson } from '../runs/lastRun';
import { resultsSoon, seatEventsCame, seatsNow } from './classResults';
import { rememberProjector } from './projector';
import { joinAddress, joinLink } from './roomLink';
import { pageStorage, showInAddressBar } from './roomPage';
import { session, setRoom, state } from './roomSession';
import { endMemberPart, maybeStartSeat, seatChanged, showRoomExperiment, trainAloneNow } from './seatRun';

/** Follow `c`'s events (the connection in use; a replaced one's events are dropped). */
export function follow(c: RoomConnection): void {
  session.unsubscribe?.();
  session.unsubscribe = c.subscribe((ev) => {
    if (session.client !== c) return;
    switch (ev.type) {
      case 'status':
        setRoom({ status: ev.status, error: ev.error, streaming: ev.streaming });
        endMemberPart();
        return;
      case 'created': {
        // A reload opens the room's link, and this browser (it holds the key) presents the room again.
        showInAddressBar(joinLink(window.location.href, ev.room, c.url));
        // A room made by "Run again" keeps the projector view on (and after a reload).
        if (state().room.projector) rememberProjector(pageStorage(), ev.room, true);
        shareLink(c, ev.room);
        return;
      }
      // H2: the server's LAN addresses can make a localhost page's link reachable.
      case 'addresses':
        if (c.roomId) shareLink(c, c.roomId);
        return;
      case 'room':
        roomChanged(ev.room);
        return;
      case 'seat':
        setRoom({ seat: ev.seat });
        seatChanged(ev.seat);
        return;
      case 'alone':
        trainAloneNow(ev.seat);
        return;
      case 'events':
        seatEventsCame(ev.seat, ev.from, ev.events);
        return;
      case 'acked':
        setRoom({ stream: { acked: ev.acked, held: c.heldEvents } });
        return;
    }
  });
}

/**
 * H2: the link students get (and its QR code), with a warning in words where
 * their devices cannot open it (roomLink.ts joinAddress). The address bar keeps this page's own.
 */
export function shareLink(c: RoomConnection, roomId: string): void {
  const { link, warning } = joinAddress(window.location.href, roomId, c.url, c.lanOrigins);
  setRoom({ link, linkWarning: warning });
}

function roomChanged(info: RoomInfo): void {
  const before = state().room.info;
  seatsNow(info.seats);
  setRoom({ info });
  // The presenter's page shows the room's experiment (its base seed), also after a reload, so its
  // reference run and question are the room's.
  if (state().room.role === 'presenter' && (!before || canonicalJson(before.spec) !== canonicalJson(info.spec))) {
    const shown = state();
    if (canonicalJson(shown.draft) !== canonicalJson(info.spec)) showRoomExperiment(info, null);
  }
  if (state().room.role === 'student') {
    const seat = info.seats.find((x) => x.index === state().room.seat?.index);
    if (seat) setRoom({ seat });
    // The partner came, left or came back: the wait's words follow.
    session.relay?.partnerChanged();
    if (!before || canonicalJson(before.spec) !== canonicalJson(info.spec)) showRoomExperiment(info, state().room.seat);
    void maybeStartSeat();
    endMemberPart();
  }
  resultsSoon();
}
