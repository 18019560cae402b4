/**
 * The exported cohort_rewards.py is the lab's vote and reward logic: fixtures made by the
 * TypeScript engine (src/core/rewards, the arm's vote exchange in experiment/arm.ts, the seeded
 * stream in random.ts, answer extraction in tasks/extract.ts) give the same labels, votes and
 * rewards when the exported Python module computes them (python3, JSON in and out).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { armRewards, type MemberRollouts, type StepContext } from '../../core/experiment/arm';
import type { ArmSpec, ExperimentSpec } from '../../core/experiment/spec';
import { pluralityVote, type Answer, type PluralityVote } from '../../core/rewards/vote';
import { EOS_ID, PAD_ID, BOS_ID, VOCAB, completionText, decode, extractAnswer, getTask } from '../../core/tasks/index';
import type { RolloutBatch } from '../../core/rollout';
import { scoreHeldOut } from '../../core/evaluate';
import type { TaskId } from '../../core/tasks/types';
import { cohortRewards, hasPython, writeExport } from './python.testkit';

const py = hasPython();
let dir = '';
beforeAll(() => {
  if (py) dir = writeExport().dir;
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `code` with the exported folder on sys.path; `cases` in on stdin, JSON out on stdout. */
const python = (code: string, cases: unknown): any => cohortRewards(dir, code, cases);

const voteJson = (v: PluralityVote) => ({ label: v.label, count: v.count, parseable: v.parseable, ratio: v.majorityRatio, tied: v.tied });
const PY_VOTE = 'def vj(v): return {"label": v.label, "count": v.count, "parseable": v.parseable, "ratio": v.majority_ratio, "tied": v.tied}\n';

describe.skipIf(!py)('the exported cohort_rewards.py against the TypeScript engine', () => {
  it("draws the lab's seeded stream (sfc32 via splitmix32 over an FNV-1a path hash), unicode paths included", () => {
    const cases = [
      { seed: 0, path: '' },
      { seed: 1, path: 'ties/peer/A/1' },
      { seed: 2 ** 31 - 1, path: 'ties/self/B/5000/prompt17' },
      { seed: 12345, path: 'é/😀/ümlaut' },
      { seed: 7, path: 'x'.repeat(300) },
    ];
    const ts = cases.map(({ seed, path }) => {
      const r = new Rng(seed, path);
      const u = Array.from({ length: 6 }, () => r.nextUint32());
      const ints = [2, 3, 7, 10, 1000].map((n) => r.int(n));
      const child = new Rng(seed, path).child('prompt3').nextUint32();
      return { u, ints, child };
    });
    const out = python(
      'out = []\nfor c in cases:\n    r = cr.Rng(c["seed"], c["path"])\n    u = [r.next_uint32() for _ in range(6)]\n    ints = [r.int(n) for n in (2, 3, 7, 10, 1000)]\n    out.append({"u": u, "ints": ints, "child": cr.Rng(c["seed"], c["path"]).child("prompt3").next_uint32()})\nprint(json.dumps(out))',
      cases,
    );
    expect(out).toEqual(ts);
  });

  it('counts plurality votes the same: ties broken by the seeded draw in UTF-16 order, discarded ties, malformed answers, tau', () => {
    const gen = new Rng(99, 'fixtures/votes');
    const alphabet: Answer[] = ['1', '2', '3', '10', 'é', '😀', '\uFF21', 'z', null];
    const cases = Array.from({ length: 400 }, (_, k) => {
      const n = 1 + gen.int(12);
      const width = 2 + gen.int(alphabet.length - 1);
      const answers = Array.from({ length: n }, () => alphabet[gen.int(width)]);
      const tau = [0, 0, 0.34, 0.5, 0.75, 1][gen.int(6)];
      return { answers, tau, seed: gen.int(1000), path: `ties/a${k}/M/${1 + gen.int(50)}`, discard: gen.int(4) === 0 };
    });
    // Ties where UTF-16 order differs from code-point order (an astral character against U+FF21).
    for (let k = 0; k < 40; k++) cases.push({ answers: ['😀', '\uFF21', 'é', null, '😀', '\uFF21', 'é'], tau: 0, seed: k, path: `ties/u/${k}`, discard: false });
    const ts = cases.map((c) => voteJson(pluralityVote(c.answers, c.discard ? null : new Rng(c.seed, c.path), c.tau)));
    const out = python(
      PY_VOTE + 'print(json.dumps([vj(cr.plurality_vote(c["answers"], None if c["discard"] else cr.Rng(c["seed"], c["path"]), c["tau"])) for c in cases]))',
      cases,
    );
    expect(ts.filter((v) => v.tied && v.label !== null).length).toBeGreaterThan(40); // the fixtures do exercise tie-breaking
    expect(ts.filter((v) => v.tied && v.label === null).length).toBeGreaterThan(10);
    expect(out.length).toBe(ts.length);
    out.forEach((o: ReturnType<typeof voteJson>, i: number) => {
      expect({ ...o, ratio: 0 }, `case ${i}`).toEqual({ ...ts[i], ratio: 0 });
      expect(o.ratio).toBeCloseTo(ts[i].ratio, 12);
    });
  });

  it("gives every arm scheme's labels and rewards as the lab's armRewards does: oracle, self, self-soft, peer and ring exchange, cohort pooling, frozen teacher", () => {
    const gen = new Rng(2024, 'fixtures/arms');
    const schemes: ArmSpec['scheme'][] = ['oracle', 'self', 'self-soft', 'peer', 'ring', 'cohort', 'teacher'];
    const answersOf = (n: number, width: number): Answer[] =>
      Array.from({ length: n }, () => (gen.int(6) === 0 ? null : String(gen.int(width))));
    interface ArmCase {
      arm: ArmSpec;
      seed: number;
      step: number;
      B: number;
      G: number;
      voted: Answer[][];
      trained: Answer[][];
      truths: string[];
      teacherAnswers: Answer[] | null;
    }
    const cases: ArmCase[] = [];
    for (let k = 0; k < 140; k++) {
      const scheme = schemes[k % schemes.length];
      const nMembers = scheme === 'peer' ? 2 : scheme === 'ring' ? 3 + gen.int(2) : scheme === 'cohort' ? 2 + gen.int(3) : 1 + gen.int(3);
      const members = ['A', 'B', 'C', 'D'].slice(0, nMembers);
      const B = 1 + gen.int(6);
      const G = 2 + gen.int(7);
      const nVote = gen.int(3) === 0 ? G + 1 + gen.int(8) : G;
      const width = 2 + gen.int(3);
      const voted = members.map(() => answersOf(B * nVote, width));
      const trained = voted.map((v) => Array.from({ length: B }, (_, b) => v.slice(b * nVote, b * nVote + G)).flat());
      const teacher = scheme === 'teacher' ? ['A', 'B', 'T'][gen.int(3)] : undefined;
      cases.push({
        arm: { id: `arm-${scheme}_${k}`, scheme, members, teacher, tau: [0, 0, 0.4, 0.6][gen.int(4)] } as ArmSpec,
        seed: gen.int(2 ** 31 - 1),
        step: 1 + gen.int(5000),
        B,
        G,
        voted,
        trained,
        truths: Array.from({ length: B }, () => String(gen.int(width))),
        teacherAnswers: teacher ? answersOf(B * nVote, width) : null,
      });
    }
    const ts = cases.map((c) => {
      const rollouts = c.voted.map((v, i) => ({ voted: { answers: v } as RolloutBatch, trained: { answers: c.trained[i] } as RolloutBatch })) as MemberRollouts[];
      const ctx: StepContext = {
        step: c.step,
        problems: c.truths.map((answer) => ({ prompt: '1+1=', answer, scratchpad: '' })),
        root: new Rng(c.seed),
        spec: { grpo: { groupSize: c.G } } as ExperimentSpec,
      };
      const r = armRewards(c.arm, rollouts, ctx, c.teacherAnswers);
      return c.arm.members.map((_, i) => ({
        labels: r.rewarded[i].labels,
        rewards: Array.from(r.rewarded[i].rewards),
        own: r.own[i].map(voteJson),
      }));
    });
    const out = python(
      PY_VOTE +
        `
def arm_case(c):
    arm, B, G, seed, step = c["arm"], c["B"], c["G"], c["seed"], c["step"]
    members, scheme, tau = arm["members"], arm["scheme"], arm.get("tau", 0)
    own = {m: cr.own_votes(c["voted"][i], B, seed, arm["id"], m, step, tau) for i, m in enumerate(members)}
    # What each member process sends, through JSON as through the shared directory.
    payloads = {m: json.loads(json.dumps(cr.exchange_payload(c["voted"][i], B, own[m]))) for i, m in enumerate(members)}
    result = []
    for i, m in enumerate(members):
        answers = c["trained"][i]
        if scheme == "oracle":
            out = cr.compute_rewards("oracle", answers, B, G, truths=c["truths"])
            labels, rewards = out.labels, out.rewards
        elif scheme in ("self", "self-soft"):
            out = cr.compute_rewards(scheme, answers, B, G, rng=cr.ballot_rng(seed, arm["id"], m, step), ballots=c["voted"][i], tau=tau)
            labels, rewards = out.labels, out.rewards
        elif scheme in cr.EXCHANGE_SCHEMES:
            labels = cr.supervision_labels(scheme, members, m, payloads, tau)
            rewards = cr.rewards_for_labels(answers, G, labels)
            # The direct form (the supervising voter's raw answers) must agree with the exchange.
            if scheme == "cohort":
                direct = cr.compute_rewards("cohort", answers, B, G, others=[c["voted"][j] for j in range(len(members)) if j != i], tau=tau)
            else:
                j = (1 - i) if scheme == "peer" else (i + 1) % len(members)
                direct = cr.compute_rewards(scheme, answers, B, G, supervisor=c["voted"][j], supervisor_rng=cr.ballot_rng(seed, arm["id"], members[j], step), tau=tau)
            assert direct.labels == labels and direct.rewards == rewards, (scheme, direct.labels, labels)
        else:
            rng = cr.ballot_rng(seed, arm["id"], cr.teacher_voter_id(arm["teacher"]), step)
            labels = [v.label for v in cr.plurality_votes(c["teacherAnswers"], B, rng, tau)]
            rewards = cr.rewards_for_labels(answers, G, labels)
        # The lab's armRewards reports each member's own vote without tau (a measurement); tau
        # only decides what is rewarded (the payloads above).
        own_plain = cr.own_votes(c["voted"][members.index(m)], B, seed, arm["id"], m, step, 0)
        result.append({"labels": labels, "rewards": rewards, "own": [vj(v) for v in own_plain]})
    return result
print(json.dumps([arm_case(c) for c in cases]))
`,
      cases,
    );
    expect(out.length).toBe(ts.length);
    let ties = 0;
    let unlabeled = 0;
    out.forEach((members: any[], k: number) => {
      members.forEach((m, i) => {
        const t = ts[k][i];
        const where = `case ${k} (${cases[k].arm.scheme}), member ${cases[k].arm.members[i]}`;
        expect(m.labels, where).toEqual(t.labels);
        expect(m.rewards.length, where).toBe(t.rewards.length);
        m.rewards.forEach((r: number, j: number) => expect(Math.abs(r - t.rewards[j]), `${where}, rollout ${j}`).toBeLessThan(1e-6));
        expect(m.own.map((v: any) => ({ ...v, ratio: 0 })), where).toEqual(t.own.map((v) => ({ ...v, ratio: 0 })));
        ties += t.own.filter((v) => v.tied).length;
        unlabeled += t.labels.filter((l) => l === null).length;
      });
    });
    expect(ties).toBeGreaterThan(50);
    expect(unlabeled).toBeGreaterThan(20);
  });

  it("extracts the same answers as the lab's rule (text after the last '>', EOS needed, well-formed per task)", () => {
    const gen = new Rng(5, 'fixtures/extract');
    const specials = [PAD_ID, BOS_ID];
    const cases: { task: TaskId; d: number; text: string; truncated: boolean; expected: string | null }[] = [];
    const tasks: [TaskId, number][] = [['digitsum', 2], ['digitsum', 5], ['addition', 1], ['addition', 3], ['reverse', 3], ['reverse', 6]];
    for (let k = 0; k < 1200; k++) {
      const [task, d] = tasks[k % tasks.length];
      const ids: number[] = [];
      const len = gen.int(12);
      for (let j = 0; j < len; j++) ids.push(gen.int(5) === 0 ? specials[gen.int(2)] : 3 + gen.int(VOCAB.length - 3));
      if (gen.int(2) === 0) {
        ids.push(16); // '>'
        const digits = 1 + gen.int(d + 2);
        for (let j = 0; j < digits; j++) ids.push(3 + gen.int(10));
      }
      if (gen.int(8) !== 0) ids.push(EOS_ID);
      for (let j = gen.int(3); j > 0; j--) ids.push(gen.int(VOCAB.length));
      const text = completionText(ids);
      // A completion cut at the cap: its text is all it says (it may well end in '>7'); the flag must reject it.
      cases.push({ task, d, text: text ?? decode(ids), truncated: text === null, expected: extractAnswer(ids, getTask(task), d) });
    }
    expect(cases.filter((c) => c.expected !== null).length).toBeGreaterThan(200);
    const out = python('print(json.dumps([cr.extract_answer(c["text"], c["task"], c["d"], c["truncated"]) for c in cases]))', cases);
    expect(out).toEqual(cases.map((c) => c.expected));
  });
});

describe.skipIf(!py)('the held-out metric, exported and in the lab', () => {
  it("scores G answers per problem as the lab's scoreHeldOut: pass@1, the pluralities (ties by the stream's ties/prompt<i>) and maj@G", () => {
    const gen = new Rng(17, 'fixtures/heldout');
    const alphabet: Answer[] = ['0', '1', '2', '3', null];
    const cases = Array.from({ length: 60 }, (_, k) => {
      const n = 1 + gen.int(12);
      const G = 1 + gen.int(8);
      const answers = Array.from({ length: n }, () => Array.from({ length: G }, () => alphabet[gen.int(alphabet.length)]));
      const truths = Array.from({ length: n }, () => String(gen.int(4)));
      return { answers, truths, seed: gen.int(1000), path: `eval/${k}` };
    });
    const ts = cases.map((c) => {
      const problems = c.truths.map((answer) => ({ prompt: '1+2=', answer, scratchpad: '' }));
      const s = scoreHeldOut(c.answers, problems, new Rng(c.seed, c.path));
      return { pass: s.passAt1, maj: s.majAtG, plurality: s.plurality };
    });
    const out = python(
      'out = []\nfor c in cases:\n    s = cr.heldout_score(c["answers"], c["truths"], cr.Rng(c["seed"], c["path"]))\n    out.append({"pass": s["pass_at_1"], "maj": s["maj_at_g"], "plurality": s["plurality"]})\nprint(json.dumps(out))',
      cases,
    );
    expect(ts.filter((_, i) => cases[i].answers.some((g) => new Set(g.filter((x) => x !== null)).size > 1)).length).toBeGreaterThan(30);
    out.forEach((o: (typeof ts)[number], i: number) => {
      expect(o.plurality, `case ${i}`).toEqual(ts[i].plurality);
      expect(o.pass, `case ${i}`).toBeCloseTo(ts[i].pass, 12);
      expect(o.maj, `case ${i}`).toBeCloseTo(ts[i].maj, 12);
    });
  });
});

describe.skipIf(!py)('the rest of the exported Python', () => {
  it('reads GSM8K-style numbers after the last ">" and the reference after "####"', () => {
    const out = python(
      'print(json.dumps([cr.extract_number_answer(t) for t in cases["texts"]] + [cr.gsm8k_truth(s) for s in cases["solutions"]]))',
      {
        texts: ['so 3 > 2 and the answer is >72', 'total: > 1,234.50.', '>$18', '> -0', '72', '>7 apples', 'x >0042', '>3.'],
        solutions: ['Natalia sold 48/2 = <<48/2=24>>24 clips.\n#### 72', '#### 1,000'],
      },
    );
    expect(out).toEqual(['72', '1234.5', '18', '0', null, null, '42', '3', '72', '1000']);
  });
});
