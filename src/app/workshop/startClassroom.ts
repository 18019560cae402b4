/**
 * On page load, after the shared experiment is loaded (shareLink.ts): read the classroom params
 * (src/share/classroom.ts) into the store: the controls ?hide= names, workshop mode from
 * ?workshop=1&step=N (keeping a linked experiment when it is that step's preset), and what was
 * ignored, as warnings. Safe to call twice (React's StrictMode runs effects twice in development).
 */
import { parseHide, parseWorkshop } from '../../share/classroom';
import { type UrlPort, browserUrl } from '../shareLink';
import { useLab } from '../store';
import { writeWorkshopUrl } from './actions';
import { WORKSHOP } from './sequence';

export function startClassroom(url: UrlPort = browserUrl): void {
  const search = url.read();
  const hide = parseHide(search);
  const ws = parseWorkshop(search, WORKSHOP.length);
  const s = useLab.getState();
  s.setHiddenControls(hide.hidden);
  s.setClassroomWarnings([hide.warning, ws.warning].filter((w): w is string => w !== null));
  if (ws.workshop && !s.classroom.workshop) {
    s.enterWorkshop(ws.workshop.step, { keepDraft: true });
    // A step out of range was moved inside: the URL says where the page is.
    writeWorkshopUrl(url);
  }
}
