/**
 * Smoke worker: chooses a tfjs backend inside a Web Worker, runs the probe computation and posts
 * the outcome back. Proves the worker + tfjs + webgpu/wasm plumbing end to end (see App.tsx and
 * e2e/). Protocol: post ProbeRequest, receive ProbeMessage(s).
 */
import type { BackendAttempt } from './backend-common';
import { chooseBackend, isBackendName, onDeviceLost } from './backend';
import { probeLooksRight, runProbe, type ProbeResult } from './probe';

export interface ProbeRequest {
  type: 'probe';
  /** Preferred backend, e.g. from ?backend= (untrusted: validated here). */
  backend?: string | null;
}

export type ProbeMessage =
  | {
      type: 'result';
      backend: string;
      adapter: string | null;
      reason: string | null;
      tried: BackendAttempt[];
      /** The computation ran and its numbers are right. */
      ok: boolean;
      result: ProbeResult | null;
      error: string | null;
      /** Set when the request's backend name was not one we know (it was ignored). */
      warning: string | null;
    }
  | { type: 'device-lost'; message: string }
  | { type: 'error'; error: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

function post(message: ProbeMessage): void {
  scope.postMessage(message);
}

function text(e: unknown): string {
  return e instanceof Error ? e.message || e.name : String(e);
}

let lastRequest: ProbeRequest = { type: 'probe' };

async function probe(request: ProbeRequest): Promise<void> {
  lastRequest = request;
  const raw = request.backend ?? null;
  let warning: string | null = null;
  let preferred: Parameters<typeof chooseBackend>[0];
  if (raw != null && raw !== '') {
    if (isBackendName(raw)) preferred = raw;
    else warning = `unknown backend ${JSON.stringify(raw.slice(0, 40))} ignored (use webgpu, webgl, wasm or cpu)`;
  }
  let report;
  try {
    report = await chooseBackend(preferred);
  } catch (e) {
    post({ type: 'error', error: `backend set-up failed: ${text(e)}` });
    return;
  }
  let result: ProbeResult | null = null;
  let error: string | null = null;
  try {
    result = await runProbe();
    if (!probeLooksRight(result)) error = `probe computed wrong numbers: ${JSON.stringify(result)}`;
  } catch (e) {
    error = `probe failed on ${report.backend}: ${text(e)}`;
  }
  post({
    type: 'result',
    backend: report.backend,
    adapter: report.adapter,
    reason: report.reason,
    tried: report.tried,
    ok: error == null,
    result,
    error,
    warning,
  });
}

onDeviceLost((info) => {
  post({ type: 'device-lost', message: `WebGPU device lost (${info.reason}): ${info.message}` });
  // Choose again: a fresh device if WebGPU still works, otherwise the next backend.
  void probe(lastRequest);
});

scope.onmessage = (event: MessageEvent<ProbeRequest>) => {
  const data = event.data;
  if (!data || typeof data !== 'object' || data.type !== 'probe') {
    post({ type: 'error', error: 'unknown request' });
    return;
  }
  const backend = typeof data.backend === 'string' ? data.backend : null;
  probe({ type: 'probe', backend }).catch((e) => post({ type: 'error', error: text(e) }));
};
