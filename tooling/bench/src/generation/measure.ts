// One engine's generation measurements: prefill (prompt → first token) and decode (the tokens after the first).

/** A loaded engine: greedy generation of `newTokens` tokens for rows of token ids, eos off. */
export interface Generator {
  /** Generates; calls `onStep(index)` once per step, as soon as step `index`'s tokens (all rows) are chosen. */
  generate(rows: readonly (readonly number[])[], newTokens: number, onStep: (index: number) => void): Promise<number[][]>;
  /** The threads it runs on, as the runtime reports them. */
  threadsUsed(): Promise<string>;
  dispose(): Promise<void>;
}

/** One generate call. */
export interface GenerationRun {
  /** Call start to the first token (one forward of the prompt over an empty cache, logits read back, token chosen), ms. */
  readonly prefillMs: number;
  /** First to last token, ms: `newTokens − 1` decode steps. */
  readonly decodeMs: number;
}

export interface BatchResult {
  readonly batch: number;
  readonly runs: GenerationRun[];
  /** The tokens of the first run, per row. */
  readonly tokens: number[][];
}

/** One engine on one model in one round (one fresh process or browser). */
export interface EngineModelResult {
  readonly engine: string;
  readonly model: string;
  /** Engine creation (model load, quantizing included) to loaded, ms. */
  readonly loadMs: number;
  readonly batches: BatchResult[];
  readonly threads: string;
  readonly error?: string;
}

export const PROMPT_LENGTH = 128;
export const NEW_TOKENS = 64;

/**
 * Loads the engine, warms it up (batch 1, an 8-token prompt, 4 new tokens: kernels compiled, threads up),
 * then `runs` generate calls of `NEW_TOKENS` tokens for each batch size on the first `batch` prompts.
 */
export async function measureGeneration(engine: string, model: string, create: () => Promise<Generator>, prompts: readonly (readonly number[])[], batches: readonly number[], runs: number): Promise<EngineModelResult> {
  const started = performance.now();
  const generator = await create();
  const loadMs = performance.now() - started;
  await generator.generate([prompts[0]!.slice(0, 8)], 4, () => undefined);
  const results: BatchResult[] = [];
  for (const batch of batches) {
    const rows = prompts.slice(0, batch).map((p) => p.slice(0, PROMPT_LENGTH));
    const timed: GenerationRun[] = [];
    let tokens: number[][] = [];
    for (let r = 0; r < runs; r++) {
      const stamps: number[] = [];
      const t0 = performance.now();
      const out = await generator.generate(rows, NEW_TOKENS, (index) => {
        stamps[index] ??= performance.now();
      });
      if (stamps.length !== NEW_TOKENS || out.some((row) => row.length !== NEW_TOKENS)) throw new Error(`${engine}: ${stamps.length} steps, rows of ${out.map((row) => row.length).join(', ')} tokens; expected ${NEW_TOKENS}`);
      timed.push({ prefillMs: stamps[0]! - t0, decodeMs: stamps[NEW_TOKENS - 1]! - stamps[0]! });
      if (r === 0) tokens = out;
    }
    results.push({ batch, runs: timed, tokens });
  }
  const threads = await generator.threadsUsed();
  await generator.dispose();
  return { engine, model, loadMs, batches: results, threads };
}
