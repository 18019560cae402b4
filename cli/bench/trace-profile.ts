/**
 * Where a browser thread spends its time, from a Chrome trace recorded with the
 * `disabled-by-default-v8.cpu_profiler` category (Playwright's `browser.startTracing`).
 *
 * V8 writes a `Profile` event per profiled thread and `ProfileChunk` events that share its `id`:
 * each chunk adds call-tree nodes ({id, callFrame, parent}) and samples (a node id each) with the
 * microseconds since the previous sample (`timeDeltas`). A sample's self time is the gap to the
 * next sample. Thread names come from the `thread_name` metadata events ("DedicatedWorker thread",
 * "CrRendererMain").
 */

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: ProfileData };
}

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url?: string };
}

interface ProfileData {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
  timeDeltas?: number[];
}

export interface ThreadProfile {
  thread: string;
  /** Sampled milliseconds, idle included. */
  totalMs: number;
  /** Milliseconds in "(idle)": the thread waited for work. */
  idleMs: number;
  /** Self milliseconds per function, largest first. */
  self: { fn: string; ms: number }[];
  /** Milliseconds of samples with `fn` anywhere on their stack (inclusive), for the names asked. */
  inclusive: Record<string, number>;
}

/** One profile per profiled thread of the trace. `inclusiveOf`: function names to total inclusively. */
export function summariseTrace(trace: { traceEvents: TraceEvent[] } | TraceEvent[], inclusiveOf: string[] = []): ThreadProfile[] {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const threadNames = new Map<string, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const threadOf = new Map<string, string>(); // profile id -> thread name
  for (const e of events) {
    if (e.name === 'Profile' && e.id) threadOf.set(e.id, threadNames.get(`${e.pid}:${e.tid}`) ?? `thread ${e.pid}:${e.tid}`);
  }
  const byProfile = new Map<string, { nodes: Map<number, ProfileNode>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    let p = byProfile.get(e.id);
    if (!p) byProfile.set(e.id, (p = { nodes: new Map(), samples: [], deltas: [] }));
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(e.args?.data?.cpuProfile?.samples ?? []));
    p.deltas.push(...(e.args?.data?.timeDeltas ?? []));
  }
  const out: ThreadProfile[] = [];
  for (const [id, p] of byProfile) {
    const self = new Map<string, number>();
    const inclusive: Record<string, number> = Object.fromEntries(inclusiveOf.map((f) => [f, 0]));
    let totalUs = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const us = Math.max(0, p.deltas[i + 1] ?? 0);
      totalUs += us;
      const node = p.nodes.get(p.samples[i]);
      const fn = node ? frameName(node) : '(unknown)';
      self.set(fn, (self.get(fn) ?? 0) + us);
      if (inclusiveOf.length) {
        const seen = new Set<string>();
        for (let n = node; n; n = n.parent != null ? p.nodes.get(n.parent) : undefined) {
          const name = n.callFrame.functionName;
          if (name in inclusive && !seen.has(name)) {
            seen.add(name);
            inclusive[name] += us / 1000;
          }
        }
      }
    }
    out.push({
      thread: threadOf.get(id) ?? `profile ${id}`,
      totalMs: totalUs / 1000,
      idleMs: (self.get('(idle)') ?? 0) / 1000,
      self: [...self].map(([fn, us]) => ({ fn, ms: us / 1000 })).sort((a, b) => b.ms - a.ms),
      inclusive,
    });
  }
  return out.sort((a, b) => b.totalMs - a.totalMs);
}

/** "readSync (backend_wasm.js)" or a V8 pseudo-frame such as "(garbage collector)". */
function frameName(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const file = url.split('/').pop()!.split('?')[0];
  return `${name} (${file})`;
}
