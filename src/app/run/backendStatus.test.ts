import { describe, expect, it } from 'vitest';
import { backendStatusText } from './backendStatus';

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
