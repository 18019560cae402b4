/**
 * The run summary as a fold over the runner's events: the runner keeps one, the CLI prints and
 * saves the one the run ends with, and the page can keep one live from the events it receives.
 * `foldEvent` mutates the summary in place (a run's history grows to thousands of entries; the
 * page bumps a version counter instead of copying), and is the only code that writes a summary.
 */
import { memberCollapseStep } from '../metrics/dynamics';
import type { ExperimentSpec } from './spec';
import type { RunSummary, RunnerEvent } from './events';

export function emptySummary(spec: ExperimentSpec, backend: string): RunSummary {
  return {
    seed: spec.seed,
    arms: spec.arms.map((a) => ({ id: a.id, scheme: a.scheme, members: [], pairs: [], ensemble: [] })),
    base: [],
    baseKappa: [],
    medianStepMs: 0,
    backend,
  };
}

/** Fold one runner event into the summary (warm-start progress and 'done' leave it unchanged; 'nonfinite' sets `halt`). */
export function foldEvent(summary: RunSummary, event: RunnerEvent, spec: ExperimentSpec): RunSummary {
  if (event.type === 'base') {
    summary.base = event.base;
    summary.baseKappa = event.baseKappa;
    const info = new Map(event.members.map((m) => [m.id, m]));
    for (const arm of summary.arms) {
      const armSpec = spec.arms.find((a) => a.id === arm.id);
      if (!armSpec) continue;
      arm.members = armSpec.members.map((id) => ({ id, family: info.get(id)?.family ?? '', params: info.get(id)?.params ?? 0, history: [], collapseStep: null }));
    }
  } else if (event.type === 'step') {
    for (const metrics of event.arms) {
      const arm = summary.arms.find((a) => a.id === metrics.armId);
      if (!arm) continue;
      for (const m of arm.members) {
        if (!Object.hasOwn(metrics.members, m.id)) continue; // an own member only: ids are data
        m.history.push({ step: event.step, ...metrics.members[m.id] });
        // The base evaluation is the first accuracy point: a run can collapse from its start.
        m.collapseStep = memberCollapseStep(summary.base.find((b) => b.memberId === m.id)?.passAt1, m.history, spec.collapseDelta);
      }
      for (const p of metrics.pairs) arm.pairs.push({ step: event.step, ...p });
      if (metrics.ensembleMajAtG !== undefined) arm.ensemble.push({ step: event.step, majAtG: metrics.ensembleMajAtG });
    }
  } else if (event.type === 'nonfinite') {
    // Where the run stopped, and nothing else: the step's numbers (NaN) never enter the summary.
    summary.halt = { step: event.step, armId: event.armId, memberId: event.memberId, quantity: event.quantity };
  }
  return summary;
}
