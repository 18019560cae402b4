/**
 * The benchmark: counts (kernels, readbacks, GPU dispatches, submits and buffer readbacks) and
 * times of RL steps, measured through the public runner API. Shared by the Node bench
 * (cli/bench/bench.ts) and the page bench.html (src/bench/bench-page.ts): no DOM, no Node imports.
 * docs/BENCHMARKS.md says what is measured and how to read it. A measurement, not a test.
 */
export * from './counters';
export * from './measure';
export * from './report';
