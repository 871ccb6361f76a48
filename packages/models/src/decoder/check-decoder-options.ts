import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';

/** What a decoder's constructor takes besides its config and checkpoint: `seed`, and a causal LM's `generationConfig`. */
export interface DecoderOptionsShape {
  readonly seed?: number;
  readonly generationConfig?: unknown;
}

/**
 * The options of a decoder's constructor (`{ seed? }`; a causal LM's `{ seed?, generationConfig? }`),
 * checked before anything is allocated: an object with only `keys`, `seed` an integer (negative ones
 * too, as `torch.manual_seed` takes them), `generationConfig` one that `parseGenerationConfig` gave
 * (an object with `eosTokenIds`, a list of integers). `undefined` is an absent option.
 *
 * @example
 * const { seed } = checkDecoderOptions(options, ['seed'], 'Qwen3Model');
 */
export function checkDecoderOptions<T extends DecoderOptionsShape>(options: T, keys: readonly ('seed' | 'generationConfig')[], caller: string): T {
  checkObject(options, { caller, argument: 'options', expected: `an object { ${keys.map((k) => `${k}?`).join(', ')} }` });
  checkOptionKeys(options, keys, caller);
  if (options.seed !== undefined) checkInteger(options.seed, { caller, argument: 'seed', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  const generation = options.generationConfig as { eosTokenIds?: unknown } | undefined;
  if (generation !== undefined) {
    checkObject(generation, { caller, argument: 'generationConfig', expected: 'a generation config (parseGenerationConfig)' });
    const eos = generation.eosTokenIds;
    if (!Array.isArray(eos) || !Array.from(eos as unknown[]).every((id) => Number.isInteger(id) && (id as number) >= 0)) throw new InvalidArgumentError({ caller, argument: 'generationConfig.eosTokenIds', expected: 'a list of token ids (parseGenerationConfig of generation_config.json)', received: describeValue(eos) });
  }
  return options;
}
