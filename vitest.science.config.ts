import { defineConfig } from 'vitest/config';
import unit from './vitest.config';

// The science checks (*.science.test.ts): slow learning checks kept out of `npm test`, run by
// `npm run science -- --tests`. The unit tests' Node environment, pool and timeouts.
export default defineConfig({
  test: { ...unit.test, include: ['src/**/*.science.test.ts', 'cli/**/*.science.test.ts'], exclude: ['**/node_modules/**'] },
});
