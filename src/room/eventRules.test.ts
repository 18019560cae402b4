/**
 * The science an event must fit before the server stores it (eventRules.ts): each case below is
 * one a red team sent from a seat and saw stored and forwarded to the projector.
 */
import { describe, expect, it } from 'vitest';
import { getPreset } from '../core/experiment/presets';
import { syntheticRun } from '../../server/load/syntheticRun';
import { answersProblem, eventProblem, seatLevelProblem, type SeatProgress } from './eventRules';
import { roomSpec, runEvents } from './fakeSocket.testkit';
import { seatTrainSpec } from './levels';
import { type SeatEvent, streamedEvent } from './protocol';
import { seatEvent } from './seatOutbox';

const run = runEvents(roomSpec.steps).map(seatEvent) as SeatEvent[];
const seed = run.at(-1)!.type === 'done' ? (run.at(-1) as Extract<SeatEvent, { type: 'done' }>).summary.seed : NaN;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
const step = (n: number) => clone(run[n]) as Extract<SeatEvent, { type: 'step' }>;
const at = (events: number, lastStep: number): SeatProgress => ({ events, lastStep, seed });

/** The problems of a sequence of events sent one after the other (a refused one is not stored). */
function problems(events: SeatEvent[], seat = at(0, 0)): (string | null)[] {
  const s = { ...seat };
  return events.map((e) => {
    const p = eventProblem(roomSpec, s, s.events, e);
    if (p === null) {
      s.events++;
      if (e.type === 'step') s.lastStep = e.step;
    }
    return p;
  });
}

describe('the science of a seat event', () => {
  it("passes an honest run: base, steps 1..n, done", () => {
    expect(problems(run)).toEqual(run.map(() => null));
  });

  it('refuses a step before any base, and a second base', () => {
    expect(eventProblem(roomSpec, at(0, 0), 0, step(1))).toMatch(/starts with its base evaluation/);
    expect(eventProblem(roomSpec, at(1, 0), 1, run[0])).toMatch(/one base evaluation/);
  });

  it('refuses steps out of order (3, 1, 3, 1) and a jump to the last step', () => {
    expect(problems([run[0], step(3), step(1), step(3), step(1)])).toEqual([
      null,
      expect.stringMatching(/after step 0 the next is 1, not 3/),
      null,
      expect.stringMatching(/after step 1 the next is 2, not 3/),
      expect.stringMatching(/after step 1 the next is 2, not 1/),
    ]);
    expect(eventProblem(roomSpec, at(1, 0), 1, step(roomSpec.steps))).toMatch(/next is 1/);
  });

  it("refuses a 'done' with no step stored", () => {
    expect(eventProblem(roomSpec, at(1, 0), 1, run.at(-1)!)).toMatch(/after at least one RL step/);
  });

  it('refuses numbers no run makes: reward 1e300, pass@1 of -1e300 or 1e6, stepMs 1e300, steps 5000', () => {
    const s = step(1);
    const member = Object.keys(s.arms[0].members)[0];
    const big = clone(s);
    big.arms[0].members[member].reward = 1e300;
    expect(eventProblem(roomSpec, at(1, 0), 1, big)).toMatch(/"reward" is 1e\+300/);
    const low = clone(s);
    low.arms[0].members[member].evalPassAt1 = -1e300;
    expect(eventProblem(roomSpec, at(1, 0), 1, low)).toMatch(/evalPassAt1/);
    const million = clone(s);
    million.arms[0].members[member].evalPassAt1 = 1e6;
    expect(eventProblem(roomSpec, at(1, 0), 1, million)).toMatch(/"evalPassAt1" is a rate and lies in \[0, 1\]/);
    expect(eventProblem(roomSpec, at(1, 0), 1, { ...s, stepMs: 1e300 })).toMatch(/stepMs/);
    expect(eventProblem(roomSpec, at(1, 0), 1, { ...s, steps: 5000 })).toMatch(/has 4 RL steps; this step says 5000/);
  });

  it('refuses arms and members the experiment does not have', () => {
    const s = step(1);
    const invented = clone(s);
    invented.arms[0].armId = 'seat0_lol';
    expect(eventProblem(roomSpec, at(1, 0), 1, invented)).toMatch(/no arm "seat0_lol"/);
    const cheater = clone(s);
    cheater.arms[0].members['Sam-is-a-cheater'] = Object.values(s.arms[0].members)[0];
    expect(eventProblem(roomSpec, at(1, 0), 1, cheater)).toMatch(/no member "Sam-is-a-cheater"/);
    const proto = clone(s);
    proto.arms[0].members['constructor'] = Object.values(s.arms[0].members)[0];
    expect(eventProblem(roomSpec, at(1, 0), 1, proto)).toMatch(/no member "constructor"/);
    const base = clone(run[0]) as Extract<SeatEvent, { type: 'base' }>;
    base.base[0].memberId = 'Z';
    expect(eventProblem(roomSpec, at(0, 0), 0, base)).toMatch(/no member "Z"/);
  });

  it("refuses a summary with another seat's seed, and bidirectional text as its backend", () => {
    const done = clone(run.at(-1)!) as Extract<SeatEvent, { type: 'done' }>;
    const seat = at(roomSpec.steps + 1, roomSpec.steps);
    expect(eventProblem(roomSpec, seat, seat.events, done)).toBeNull();
    expect(eventProblem(roomSpec, seat, seat.events, { ...done, summary: { ...done.summary, seed: seed + 1 } })).toMatch(/seed is \d+; the summary says/);
    const bidi = { ...done, summary: { ...done.summary, backend: 'wasm\u202e' } };
    expect(eventProblem(roomSpec, seat, seat.events, bidi)).toMatch(/control or bidirectional/);
    const long = { ...done, summary: { ...done.summary, backend: 'w'.repeat(200) } };
    expect(eventProblem(roomSpec, seat, seat.events, long)).toMatch(/at most 80 characters/);
  });
});

describe("a partner's answers", () => {
  const { promptsPerStep: B, groupSize: G } = roomSpec.grpo;
  const answers = (prompts: number, each: number) => Array.from({ length: prompts }, () => Array.from({ length: each }, () => '7'));

  it('pass in the shape the partner reads: B prompts of n_vote at a step, the held-out set of G at an evaluation', () => {
    expect(answersProblem(roomSpec, 1, 'train', answers(B, G))).toBeNull();
    expect(answersProblem(roomSpec, 0, 'eval', answers(roomSpec.data.heldOut, G))).toBeNull();
    expect(answersProblem(roomSpec, roomSpec.steps, 'eval', answers(roomSpec.data.heldOut, G))).toBeNull();
  });

  it('are refused in any other shape, at a step without answers, or with bidirectional text', () => {
    expect(answersProblem(roomSpec, 1, 'train', answers(B + 1, G))).toMatch(new RegExp(`cover ${B} prompts; these cover ${B + 1}`));
    expect(answersProblem(roomSpec, 1, 'train', answers(B, G - 1))).toMatch(/prompt 0 has/);
    expect(answersProblem(roomSpec, 0, 'train', answers(B, G))).toMatch(/RL steps 1 to/);
    expect(answersProblem(roomSpec, 1, 'eval', answers(roomSpec.data.heldOut, G))).toMatch(/Held-out answers come at the base/);
    expect(answersProblem(roomSpec, 1, 'train', [['\u202e7', ...answers(1, G - 1)[0]], ...answers(B - 1, G)])).toMatch(/bidirectional/);
  });
});

describe("a paired seat's own level", () => {
  const overlap = { ...getPreset('overlap')!.spec, steps: 2, evalEvery: 1 };
  const ofSeat = (level: string, member: string | null, alone = false) =>
    syntheticRun(seatTrainSpec(overlap, { level, member, alone }), 3).map(streamedEvent);

  it("takes a member part's or a lone seat's own run whole", () => {
    for (const e of ofSeat('peer-T', 'T')) expect(seatLevelProblem({ arm: 'peer-T', members: ['T'] }, e)).toBeNull();
    for (const e of ofSeat('peer-T', 'A', true)) expect(seatLevelProblem({ arm: 'peer-T', members: ['A', 'T'] }, e)).toBeNull();
  });

  it("refuses another level's arm, and the partner's member, naming the rule", () => {
    const [base, step] = ofSeat('peer-S', 'A');
    expect(seatLevelProblem({ arm: 'peer-T', members: ['A'] }, step)).toBe('This seat\'s level is the partner level "peer-T" alone; this event names arm "peer-S".');
    const partner = ofSeat('peer-T', 'T')[0];
    expect(seatLevelProblem({ arm: 'peer-T', members: ['A'] }, partner)).toBe('This seat trains member "A" of arm "peer-T" alone; this event names member "T".');
    // A seat of a pair may not send both members' numbers as if it trained alone.
    const both = ofSeat('peer-T', 'A', true);
    expect(seatLevelProblem({ arm: 'peer-T', members: ['A'] }, both[1])).toMatch(/names member "T"/);
    expect(seatLevelProblem({ arm: 'peer-S', members: ['A'] }, base)).toBeNull();
    const nonfinite: SeatEvent = { type: 'nonfinite', step: 1, armId: 'peer-B0', memberId: 'A', quantity: 'loss', value: 'NaN', explanation: 'x' } as SeatEvent;
    expect(seatLevelProblem({ arm: 'peer-S', members: ['A'] }, nonfinite)).toMatch(/names arm "peer-B0"/);
  });
});
