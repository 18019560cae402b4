/**
 * What the soak page (soak-page.ts) and its Node driver (cli/bench/bench-browser.ts) exchange: plain
 * types with no imports, so the Node side type-checks without the page's browser modules.
 */
/** What the page knows at a sample; the driver adds the JS heap. */
export interface SoakProbe {
  step: number;
  tensors: number;
  tensorBytes: number;
  /** Bytes tfjs-webgpu's buffer manager has allocated (its free pool included); null off webgpu. */
  gpuBytes: number | null;
}

export interface SoakOutcome {
  /** RL steps run: the spec's, or fewer when ?minutes= stopped the run. */
  steps?: number;
  /** The spec's steps. */
  planned?: number;
  seconds?: number;
  /** Where the members' warm starts came from ('shipped', 'trained', ...), one per member. */
  warmStarts?: string[];
  error?: string;
}

/** The page's globals the driver reads (window.__soak) and sets (window.__soakSample). */
export interface SoakGlobals {
  __soakSample?: (probe: SoakProbe) => Promise<void>;
  __soak?: SoakOutcome;
}
