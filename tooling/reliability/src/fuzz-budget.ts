/** Fuzz cases per CI run (the `pnpm fuzz` script raises them with ATTNKIT_FUZZ_RUNS). */
export const FUZZ_RUNS = Number(process.env['ATTNKIT_FUZZ_RUNS'] ?? 4000);

/**
 * Properties fuzzed, each with FUZZ_RUNS cases (so FUZZ_RUNS × their sum is the number of fuzz
 * cases per run): safetensors reader (3, in @attnkit/nn), config parser (2), tokenizer loading (2),
 * masks (5: validateMask, mergeMasks, paddingMask, causalMask, paddingMaskFromIds),
 * scaledDotProductAttention (1), Module.loadStateDict (1), MultiHeadAttention.fromTorchStateDict (1),
 * loadEncoder checkpoints (1), Tokenizer.encode (1), demo command lines (2: attnkit encode, attnkit).
 * No property runs fewer cases: the expensive inputs (1 000 to 10 000 bad state-dict keys) are a rare
 * kind of case inside their property (1 in 100, 1 in 200 for loadEncoder), not a property of their own.
 */
export const FUZZ_PROPERTIES = {
  safetensors: 3,
  configParser: 2,
  tokenizerLoading: 2,
  masks: 5,
  attention: 1,
  loadStateDict: 1,
  torchStateDict: 1,
  checkpointLoading: 1,
  tokenizerEncode: 1,
  cliArguments: 2,
} as const;

/**
 * The time limit of one fuzz property: 60 s, or 10 ms a case when FUZZ_RUNS is raised (the slowest
 * property, loadEncoder checkpoints, takes about 3 ms a case on a shared 2-core machine).
 */
export const FUZZ_TIMEOUT_MS = Math.max(60_000, FUZZ_RUNS * 10);
