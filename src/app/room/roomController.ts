/**
 * Class mode in the page: what the Class room panel's buttons do and what a join link does, as one
 * `room` object. The presenter creates a room (the experiment on screen), shares the link and its
 * QR code, starts and closes it and exports every seat's run as one file (presenterActions.ts); a
 * student's page joins from the link (roomFromLink.ts), takes the room's experiment with its seat's
 * seed, starts when the room does and streams its run's events to the room (seatRun.ts). Where the
 * room cannot be reached or closes, the page says so and the student's run goes on.
 *
 * The parts: roomSession.ts holds the one connection; roomFeed.ts takes what arrives on it into
 * the page; classResults.ts makes the class's events the results the projector view and the class
 * panels draw (classRecords.ts), rebuilt at most once a second; roomPage.ts is the page's address,
 * storage and the room server's probe. In a paired room a seat trains its member of the peer arm
 * and its exchanges go through the room (pairing.ts); the class is one run per pair.
 */
import { presenterActions } from './presenterActions';
import { linkActions } from './roomFromLink';
import { useThisTab } from './seatRun';

export const room = { ...presenterActions, ...linkActions, useThisTab };

export { startRoomFromUrl } from './roomFromLink';
export { roomConnection } from './roomSession';
