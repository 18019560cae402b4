/**
 * The experiment runner: an async step generator that the UI worker and the CLI both drive.
 *
 *   warm start every member once  ->  evaluate the base  ->  for each RL step:
 *     draw B prompts  ->  every arm steps its members on them  ->  evaluate every E steps
 *
 * It is pull-driven: nothing runs while nobody pulls, which is how the UI pauses and single-steps.
 * After the warm start, each pull yields exactly one 'step' event. Between steps `checkpoint()`
 * captures everything (weights, optimizer state, step, history) as plain data; a run created
 * from that checkpoint continues exactly as the uninterrupted run would have: every random
 * stream after the warm start is derived from (seed, purpose, step), not from a running state.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../random';
import type { NamedWeight, Policy } from '../models/policy';
import { getTask, makeSplit, sequenceLength, type Split } from '../tasks/index';
import { VOCAB_SIZE } from '../tasks/tokenizer';
import type { Task } from '../tasks/types';
import { Adam, type AdamState } from '../adam';
import { evaluatePolicy, type Evaluation } from '../evaluate';
import { collapseStep } from '../metrics/dynamics';
import { armStep, type ArmMember } from './arm';
import { buildMember, policyConfigFor, type WarmMember } from './cohort';
import { createPolicy } from '../models/index';
import { evalPairMetrics, pooledMajAtG } from './measure';
import type { ExperimentSpec } from './spec';
import type { ArmStepMetrics, BaseEvaluation, MemberInfo, RunnerEvent, RunSummary } from './events';

export const CHECKPOINT_VERSION = 1;

export interface Checkpoint {
  version: typeof CHECKPOINT_VERSION;
  spec: ExperimentSpec;
  /** Last completed RL step. */
  step: number;
  members: MemberInfo[];
  references: Record<string, NamedWeight[]>;
  arms: { id: string; members: { id: string; weights: NamedWeight[]; optimizer: AdamState }[] }[];
  summary: RunSummary;
}

export interface RunOptions {
  checkpoint?: Checkpoint;
  /** Reported in the summary (the backend the caller initialised). */
  backend?: string;
}

export interface ExperimentRun {
  events(): AsyncGenerator<RunnerEvent, void, void>;
  /** Plain-data snapshot between steps (call it when the generator is not mid-step). */
  checkpoint(): Promise<Checkpoint>;
  dispose(): void;
}

/** The completion length cap L: the spec's, or the longest correct completion plus slack. */
export function lengthCap(spec: ExperimentSpec, task: Task): number {
  return spec.grpo.maxNewTokens > 0 ? spec.grpo.maxNewTokens : task.maxCompletionLength(spec.task.difficulty) + 2;
}

export function createRun(spec: ExperimentSpec, opts: RunOptions = {}): ExperimentRun {
  const root = new Rng(spec.seed);
  const task = getTask(spec.task.id);
  const d = spec.task.difficulty;
  const L = lengthCap(spec, task);
  const promptTokens = 1 + task.promptLength(d);
  const maxLen = Math.max(sequenceLength(task, d), promptTokens + L);
  const split: Split = makeSplit(task, d, root.child('split'), {
    warmStart: spec.data.labeledPool,
    rl: spec.data.rlPool,
    heldOut: spec.data.heldOut,
  });

  const warm = new Map<string, WarmMember>();
  const arms = new Map<string, ArmMember[]>();
  let step = 0;
  let disposed = false;
  const stepTimes: number[] = [];
  const summary: RunSummary = {
    seed: spec.seed,
    arms: spec.arms.map((a) => ({ id: a.id, scheme: a.scheme, members: [], pairs: [], ensemble: [] })),
    base: [],
    baseKappa: [],
    medianStepMs: 0,
    backend: opts.backend ?? tf.getBackend(),
  };

  const evalOpts = (purpose: string) => ({
    groupSize: spec.grpo.groupSize,
    temperature: spec.grpo.temperature,
    maxNewTokens: L,
    batchSize: Math.max(1, Math.floor(512 / spec.grpo.groupSize)),
    rng: root.child(purpose),
  });

  function makeArms(): void {
    for (const a of spec.arms) {
      arms.set(
        a.id,
        a.members.map((id) => {
          const w = warm.get(id)!;
          const policy = w.reference.clone();
          return {
            id,
            sampleSeed: w.spec.sampleSeed,
            policy,
            optimizer: new Adam(policy.variables, { learningRate: spec.grpo.learningRate }),
            reference: w.reference,
          };
        }),
      );
    }
  }

  async function restore(cp: Checkpoint): Promise<void> {
    for (const m of spec.members) {
      const policy = createPolicy(policyConfigFor(m, VOCAB_SIZE, maxLen), root.child(`init/${m.initSeed}/${m.family}`));
      policy.importWeights(cp.references[m.id]);
      const info = cp.members.find((x) => x.id === m.id)!;
      warm.set(m.id, { spec: m, reference: policy, info });
    }
    makeArms();
    for (const a of cp.arms) {
      const ms = arms.get(a.id)!;
      a.members.forEach((saved, i) => {
        ms[i].policy.importWeights(saved.weights);
        ms[i].optimizer.importState(saved.optimizer);
      });
    }
    step = cp.step;
    Object.assign(summary, structuredClone(cp.summary));
  }

  async function evaluateAll(purpose: string, which: { id: string; policy: Policy }[]): Promise<Map<string, Evaluation>> {
    const out = new Map<string, Evaluation>();
    for (const m of which) {
      out.set(m.id, await evaluatePolicy(m.policy, task, d, split.heldOut, evalOpts(`eval/${purpose}/${m.id}`)));
    }
    return out;
  }

  async function* events(): AsyncGenerator<RunnerEvent, void, void> {
    if (opts.checkpoint) {
      await restore(opts.checkpoint);
    } else {
      // Warm start each member once; every arm clones these weights.
      for (let i = 0; i < spec.members.length; i++) {
        const m = spec.members[i];
        // The warm start runs while its progress events stream out as they arrive.
        const queue: RunnerEvent[] = [];
        let wake: (() => void) | null = null;
        let finished = false;
        const building = buildMember(spec, m, split.warmStart, VOCAB_SIZE, maxLen, root, (s, n, loss) => {
          queue.push({
            type: 'warmstart',
            memberId: m.id,
            step: s,
            steps: n,
            loss,
            memberIndex: i,
            memberCount: spec.members.length,
            ...(m.warmStartTarget > 0 ? { target: m.warmStartTarget } : {}),
          });
          wake?.();
        }).finally(() => {
          finished = true;
          wake?.();
        });
        try {
          while (!finished || queue.length > 0) {
            if (queue.length > 0) yield queue.shift()!;
            else await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
          }
        } finally {
          // The consumer stopped pulling mid warm start: the member still being built is
          // disposed when it is done, so a stopped run leaves no tensor behind.
          if (!finished) void building.then((w) => w.reference.dispose());
        }
        const w = await building;
        if (disposed) {
          w.reference.dispose();
          return;
        }
        warm.set(m.id, w);
        if (m.warmStartSteps === 0) {
          yield { type: 'warmstart', memberId: m.id, step: 0, steps: 0, loss: NaN, memberIndex: i, memberCount: spec.members.length };
        }
        if (disposed) return;
      }
      const base = await evaluateAll('base', [...warm.values()].map((w) => ({ id: w.spec.id, policy: w.reference })));
      summary.base = [...base].map(([memberId, e]): BaseEvaluation => ({
        memberId,
        passAt1: e.passAt1,
        majAtG: e.majAtG,
        warmStartSteps: warm.get(memberId)!.info.warmStartSteps,
      }));
      summary.baseKappa = [];
      const ids = [...warm.keys()];
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          const p = evalPairMetrics(base.get(ids[i])!, base.get(ids[j])!, split.heldOut);
          summary.baseKappa.push({ a: ids[i], b: ids[j], kappa: p.kappa, bothWrongSame: p.bothWrongSame });
        }
      }
      makeArms();
      for (const a of summary.arms) {
        const armSpec = spec.arms.find((x) => x.id === a.id)!;
        a.members = armSpec.members.map((id) => ({ id, family: warm.get(id)!.info.family, params: warm.get(id)!.info.params, history: [], collapseStep: null }));
      }
    }
    yield { type: 'base', members: [...warm.values()].map((w) => w.info), base: summary.base, baseKappa: summary.baseKappa };

    while (step < spec.steps && !disposed) {
      step += 1;
      const t0 = performance.now();
      const promptRng = root.child(`prompts/${step}`);
      const problems = Array.from({ length: spec.grpo.promptsPerStep }, () => split.rl[promptRng.int(split.rl.length)]);
      const isEval = step % spec.evalEvery === 0 || step === spec.steps;
      const armMetrics: ArmStepMetrics[] = [];
      const samples = [];
      let tokens = 0;
      for (const a of spec.arms) {
        const members = arms.get(a.id)!;
        const teacherWarm = a.teacher ? warm.get(a.teacher) : undefined;
        const result = await armStep(a, members, {
          step,
          problems,
          task,
          difficulty: d,
          maxNewTokens: L,
          root,
          spec,
          teacher: teacherWarm ? { id: teacherWarm.spec.id, policy: teacherWarm.reference, sampleSeed: teacherWarm.spec.sampleSeed } : undefined,
        });
        tokens += result.tokens;
        if (isEval) {
          // Common random numbers: a member is evaluated with the same stream in every arm.
          const evals = await evaluateAll(`step${step}`, members);
          for (const m of members) {
            const e = evals.get(m.id)!;
            result.metrics.members[m.id].evalPassAt1 = e.passAt1;
            result.metrics.members[m.id].evalMajAtG = e.majAtG;
          }
          for (const p of result.metrics.pairs) {
            const q = evalPairMetrics(evals.get(p.a)!, evals.get(p.b)!, split.heldOut);
            p.evalKappa = q.kappa;
            p.evalBothWrongSame = q.bothWrongSame;
          }
          if (members.length >= 2) {
            result.metrics.ensembleMajAtG = pooledMajAtG(
              evals.get(members[0].id)!,
              evals.get(members[1].id)!,
              split.heldOut,
              root.child(`ensemble/${a.id}/${step}`),
            );
          }
        }
        armMetrics.push(result.metrics);
        samples.push(result.sample);
        record(result.metrics, step);
      }
      const stepMs = performance.now() - t0;
      stepTimes.push(stepMs);
      summary.medianStepMs = median(stepTimes);
      yield { type: 'step', step, steps: spec.steps, arms: armMetrics, samples, stepMs, tokens };
    }
    if (!disposed) yield { type: 'done', summary: structuredClone(summary) };
  }

  function record(metrics: ArmStepMetrics, s: number): void {
    const arm = summary.arms.find((a) => a.id === metrics.armId)!;
    for (const m of arm.members) {
      m.history.push({ step: s, ...metrics.members[m.id] });
      // The base evaluation is the first accuracy point: a run can collapse from its start.
      const base = summary.base.find((b) => b.memberId === m.id);
      const start = base ? [{ step: 0, evalPassAt1: base.passAt1, reward: m.history[0].reward }] : [];
      m.collapseStep = collapseStep([...start, ...m.history], spec.collapseDelta);
    }
    for (const p of metrics.pairs) arm.pairs.push({ step: s, ...p });
    if (metrics.ensembleMajAtG !== undefined) arm.ensemble.push({ step: s, majAtG: metrics.ensembleMajAtG });
  }

  async function checkpoint(): Promise<Checkpoint> {
    const references: Record<string, NamedWeight[]> = {};
    for (const [id, w] of warm) references[id] = await w.reference.exportWeights();
    const armStates: Checkpoint['arms'] = [];
    for (const [id, ms] of arms) {
      const members = [];
      for (const m of ms) members.push({ id: m.id, weights: await m.policy.exportWeights(), optimizer: await m.optimizer.exportState() });
      armStates.push({ id, members });
    }
    return {
      version: CHECKPOINT_VERSION,
      spec,
      step,
      members: [...warm.values()].map((w) => w.info),
      references,
      arms: armStates,
      summary: structuredClone(summary),
    };
  }

  function dispose(): void {
    disposed = true;
    for (const ms of arms.values()) for (const m of ms) {
      m.policy.dispose();
      m.optimizer.dispose();
    }
    for (const w of warm.values()) w.reference.dispose();
    arms.clear();
    warm.clear();
  }

  return { events, checkpoint, dispose };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return 0;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
