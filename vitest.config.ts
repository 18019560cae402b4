import { defineConfig } from 'vitest/config';

// Unit tests run in Node on the tfjs wasm (or cpu) backend; see docs/TFJS-AND-BROWSER.md, "In Node".
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Slow science checks (learning, not correctness) run by `npm run science -- --tests`
    // (vitest.science.config.ts), not by `npm test`.
    exclude: ['**/node_modules/**', '**/*.science.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
