import { describe, expect, it } from 'vitest';
import type { BackendName } from '../../engine/protocol';
import { type BackendChoiceView, backendStatusText } from './backendStatus';

describe('backendStatusText', () => {
  const report = { backend: 'webgpu', adapter: 'swiftshader', reason: null, tried: [] };

  it('names the backend and its adapter once reported', () => {
    expect(backendStatusText(report, null)).toBe('webgpu (swiftshader)');
    expect(backendStatusText({ ...report, backend: 'wasm', adapter: null }, null)).toBe('wasm');
  });

  it('says "detecting…" until then, and "none started" once an error came first', () => {
    expect(backendStatusText(null, null)).toBe('detecting…');
    expect(backendStatusText(null, { message: 'no tfjs backend started within 90 s' })).toBe('none started');
    // A run's error later does not hide the backend it ran on.
    expect(backendStatusText(report, { message: 'out of memory' })).toBe('webgpu (swiftshader)');
  });
});

describe('backendStatusText names the backend that will run, or says it is choosing (webgl -> wasm on Start)', () => {
  const webgl = { backend: 'webgl', adapter: null, reason: null, tried: [] };
  const wasm = { backend: 'wasm', adapter: null, reason: null, tried: [] };
  const sig = 'quick-cohort';
  const measured = (status: 'measuring' | 'measured' | 'remembered', key: string, chosen: BackendName | null): BackendChoiceView['measurement'] => ({
    status,
    key,
    rows: [],
    current: null,
    chosen,
    reason: chosen ? 'fastest measured' : null,
    measuredAt: chosen ? 1 : null,
  });
  const view = (measurement: BackendChoiceView['measurement'], starting = false) => ({ forced: false, measurement, signature: sig, starting });

  it('before the first Start of a cohort, the backend loaded is not called the one that runs', () => {
    const text = backendStatusText(webgl, null, view(null));
    expect(text).not.toBe('webgl');
    expect(text).toBe('webgl until Start, which times each backend and keeps the fastest');
  });

  it('between Start and the choice: choosing, not the backend that is about to be replaced', () => {
    expect(backendStatusText(webgl, null, view(null, true))).toBe('choosing…');
    expect(backendStatusText(webgl, null, view(measured('measuring', `dev|cohort=${sig}`, null), true))).toBe('choosing: timing one step on each backend…');
  });

  it('a choice measured or remembered for this cohort names the chosen backend, even before it is loaded', () => {
    expect(backendStatusText(wasm, null, view(measured('measured', `dev|cohort=${sig}`, 'wasm')))).toBe('wasm');
    expect(backendStatusText(webgl, null, view(measured('remembered', `dev|cohort=${sig}`, 'wasm')))).toBe('wasm');
    // Measured for another cohort: this one is chosen at its Start.
    expect(backendStatusText(wasm, null, view(measured('measured', 'dev|cohort=other', 'wasm')))).toMatch(/until Start/);
  });

  it('?backend= forces the one loaded: it is the one that runs', () => {
    expect(backendStatusText(wasm, null, { ...view(null), forced: true })).toBe('wasm');
  });
});
