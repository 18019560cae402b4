/**
 * The science's paired statistics live in the core (src/core/metrics/paired.ts), where the page's
 * verdict over seeds reads them too: one implementation of the lab's rule for the CLI and the page.
 */
export * from '../../src/core/metrics/paired';
