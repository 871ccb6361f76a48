/** Fuzz cases per CI run (the `pnpm fuzz` script raises them with ATTNKIT_FUZZ_RUNS). */
export const FUZZ_RUNS = Number(process.env['ATTNKIT_FUZZ_RUNS'] ?? 4000);

/** Properties fuzzed, each with FUZZ_RUNS cases: safetensors (3, in @attnkit/nn), config parser (2), tokenizer loading (2). */
export const FUZZ_PROPERTIES = { safetensors: 3, configParser: 2, tokenizerLoading: 2 } as const;
