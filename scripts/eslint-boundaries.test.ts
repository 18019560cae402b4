/**
 * The import boundaries of eslint.config.js (docs/ARCHITECTURE.md, "Layers"), linted as if each import were the
 * first line of a file in that folder: each rule fires on an import across its boundary and stays
 * quiet on the imports the layer is allowed. Removing or loosening a boundary fails here.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const eslint = new ESLint({ cwd: ROOT });

/** Whether no-restricted-imports fires on `code` placed in the file `at`. */
async function restricted(at: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${code}\nexport {};\n`, { filePath: resolve(ROOT, at) });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${at}: ${code}`).toEqual([]);
  return result.messages.some((m) => m.ruleId === 'no-restricted-imports');
}

async function check(at: string, refused: string[], allowed: string[]) {
  for (const code of refused) expect(await restricted(at, code), `refused in ${at}: ${code}`).toBe(true);
  for (const code of allowed) expect(await restricted(at, code), `allowed in ${at}: ${code}`).toBe(false);
}

describe('import boundaries (eslint.config.js)', () => {
  it('src/core imports no engine, page, share, export, React, zustand, idb or Node module', async () => {
    await check(
      'src/core/experiment/probe.ts',
      [
        "import { isActivePhase } from '../../engine/protocol';",
        "import type { WorkerEvent } from '../../engine/protocol';",
        "import { useLab } from '../../app/store';",
        "import { decodeShare } from '../../share/url';",
        "import { zip } from '../../export/zip';",
        "import { pwaOptions } from '../../pwa/pwaOptions';",
        "import { parseArgs } from '../../../cli/common/args';",
        "import { useState } from 'react';",
        "import { create } from 'zustand';",
        "import { openDB } from 'idb';",
        "import { readFileSync } from 'node:fs';",
      ],
      [
        "import { Rng } from '../random';",
        "import { parseSpec } from './spec';",
        "import * as tf from '@tensorflow/tfjs';",
        "import { z } from 'zod';",
      ],
    );
    // The same in a core test file and at the top of src/core.
    await check('src/core/probe.test.ts', ["import { useLab } from '../app/store';", "import { openDB } from 'idb';"], ["import { Rng } from './random';"]);
  });

  it('src/app loads no tfjs: engine modules other than protocol and backendChoice are type-only', async () => {
    await check(
      'src/app/run/probe.ts',
      [
        "import * as tf from '@tensorflow/tfjs';",
        "import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';",
        "import { chooseBackend } from '../../engine/backend';",
        "import { errorText } from '../../engine/backend-common';",
      ],
      [
        "import type { Tensor } from '@tensorflow/tfjs';",
        "import type { BackendName } from '../../engine/backend-common';",
        "import { isActivePhase } from '../../engine/protocol';",
        "import { cohortSignature } from '../../engine/backendChoice';",
        "import { useState } from 'react';",
        "import { parseSpec } from '../../core/experiment/spec';",
        "import { decodeShare } from '../../share/url';",
      ],
    );
  });

  it('src/share imports no engine, page or React (its tests may replay through the page)', async () => {
    await check(
      'src/share/probe.ts',
      [
        "import { isActivePhase } from '../engine/protocol';",
        "import { replayRecord } from '../app/store/record';",
        "import type { RunState } from '../app/store/runSlice';",
        "import { useState } from 'react';",
        "import { createRoot } from 'react-dom/client';",
      ],
      ["import { emptyRecord } from './record';", "import { parseSpec } from '../core/experiment/spec';", "import { z } from 'zod';"],
    );
    await check(
      'src/share/probe.test.ts',
      ["import { isActivePhase } from '../engine/protocol';", "import { useState } from 'react';"],
      ["import { replayRecord } from '../app/store/record';"],
    );
  });

  it('src/engine imports no page, share code or React', async () => {
    await check(
      'src/engine/probe.ts',
      ["import { useLab } from '../app/store';", "import { decodeShare } from '../share/url';", "import { useState } from 'react';"],
      ["import { createRun } from '../core/experiment/runner';", "import * as tf from '@tensorflow/tfjs';", "import { openDB } from 'idb';"],
    );
  });
});
