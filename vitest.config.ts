import { defineConfig } from 'vitest/config';

// Unit tests run in Node on the tfjs wasm (or cpu) backend; see docs/TFJS-AND-BROWSER.md, "In Node".
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
