import { defineConfig } from 'vitest/config';

// Unit tests run in Node on the tfjs wasm (or cpu) backend; see docs/TFJS-AND-BROWSER.md, "In Node".
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts', 'server/**/*.test.ts'],
    // Slow science checks (learning, not correctness) run by `npm run science -- --tests`
    // (vitest.science.config.ts), not by `npm test`.
    exclude: ['**/node_modules/**', '**/*.science.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One module graph per fork, not one per file: importing tfjs and starting its wasm backend
    // again for every file took a third of the suite's time. Each test sets the backend it needs
    // (useBackend in a beforeAll) and disposes what it makes; the files pass in any order
    // (checked with --sequence.shuffle.files).
    isolate: false,
    reporters: ['default'],
  },
});
