/**
 * Up to this many texts (of the shard being embedded), `attnkit embed` without `--workers` embeds
 * in its own thread: below it, starting worker threads (each loads tfjs, the wasm binary and the
 * model: about 0.25 s more per run) costs more than they save. Measured with the embedded model on
 * short texts (2 to 26 words), wall time of the whole command on 2 cores, in-process vs 2 workers:
 * 200 texts 0.74 vs 0.97 s, 2000 1.20 vs 1.27 s, 5000 1.87 vs 1.72 s, 10000 2.75 vs 2.40 s — the
 * crossover is near 3000 (on a loaded machine, nearer 4500; with more cores workers pay off sooner).
 */
export const IN_PROCESS_MAX_TEXTS = 3000;

/** How `attnkit embed` spreads the work: `workers` threads (0: the main thread) of `threads` wasm threads each. */
export interface EmbedPlan {
  /** Worker threads; 0 when the main thread embeds. */
  readonly workers: number;
  /** wasm threads of each worker (or of the main thread). */
  readonly threads: number;
}

/**
 * The plan for `texts` texts (`Infinity`: more than {@link IN_PROCESS_MAX_TEXTS}) on `cores` cores.
 * `--workers N` is honoured as given (N worker threads); without it, a small input — or a machine
 * with one core, where a worker only adds its start-up — is embedded in the main thread, and a
 * large one by one worker per core. `--threads` is honoured as given; without it the cores are
 * shared out: `cores / workers` each, at least 1.
 *
 * @example
 * embedPlan({ workers: undefined, threads: undefined }, 200, 8); // { workers: 0, threads: 8 }
 * embedPlan({ workers: undefined, threads: undefined }, Infinity, 8); // { workers: 8, threads: 1 }
 * embedPlan({ workers: 2, threads: undefined }, 200, 8); // { workers: 2, threads: 4 }
 */
export function embedPlan(given: { readonly workers: number | undefined; readonly threads: number | undefined }, texts: number, cores: number): EmbedPlan {
  const workers = given.workers ?? (texts <= IN_PROCESS_MAX_TEXTS || cores <= 1 ? 0 : cores);
  return { workers, threads: given.threads ?? Math.max(1, Math.floor(cores / Math.max(1, workers))) };
}
