/**
 * zod, configured once for the whole lab: every schema imports `z` from here, not from 'zod'.
 *
 * jitless: zod 4 compiles fast object parsers with `new Function`, after probing whether eval is
 * allowed. Under the page's Content-Security-Policy (src/pwa/csp.ts: no 'unsafe-eval') the probe
 * fails, and although zod catches the error, the browser still reports a
 * `securitypolicyviolation` for it, in the page and in the training worker. jitless skips the
 * probe and the compiled parsers; the interpreted ones give the same results. It must be set
 * before any schema is built (zod reads it when a schema is constructed), which importing `z`
 * from this module guarantees.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
