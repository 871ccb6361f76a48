import { InvalidArgumentError, checkAbortSignal, checkBoolean, checkFunction, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import type { DecoderConfig } from '../decoder/decoder-config.js';
import type { TokenChoice } from './choose-token.js';
import type { GenerationConfig } from './generation-config.js';
import type { GenerateOptions, GenerationTokenizer } from './generate-options.js';

/** Every setting of one `generate` call, checked, with the model's defaults applied. */
export interface GenerationSettings extends TokenChoice {
  /** Undefined: a random seed. */
  readonly seed: number | undefined;
  /** The new tokens of a prompt `width` tokens wide (a typed error when none fit). */
  newTokens(width: number): number;
  /** The KV cache's bound (prompt and new tokens). */
  readonly maxLength: number;
  readonly stop: readonly string[];
  readonly eos: ReadonlySet<number>;
  readonly padTokenId: number;
  readonly tokenizer: GenerationTokenizer | undefined;
  readonly onToken: GenerateOptions['onToken'];
  readonly signal: AbortSignal | undefined;
}

const OPTION_KEYS = ['maxNewTokens', 'maxLength', 'doSample', 'temperature', 'topK', 'topP', 'minP', 'repetitionPenalty', 'seed', 'stop', 'eosTokenId', 'padTokenId', 'tokenizer', 'onToken', 'signal'];
/** Options that only sampling reads: given with greedy decoding, they are a mistake, not ignored. */
const SAMPLING_ONLY = ['temperature', 'topK', 'topP', 'minP'] as const;

/**
 * The settings of a `generate` call: each option checked (a typed error saying what was expected and
 * received), then the model's `generationConfig` (generation_config.json) for what the call does not
 * set, then transformers' defaults (greedy; when sampling `temperature` 1, `top_k` 50, `top_p` 1;
 * 20 new tokens, or `max_length` less the prompt). Sampling options given with greedy decoding are an
 * error (transformers ignores them with a warning). Nothing is allocated.
 *
 * @example
 * const settings = resolveGeneration({ doSample: true, topP: 0.9, seed: 1 }, model.generationConfig, model.config, 'LlamaForCausalLM.generate');
 */
export function resolveGeneration(options: GenerateOptions, defaults: GenerationConfig, config: DecoderConfig, caller: string): GenerationSettings {
  checkObject(options, { caller, argument: 'options', expected: 'an object of generation options' });
  checkOptionKeys(options, OPTION_KEYS, caller);
  const refuse = (argument: string, expected: string, received: string, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received, ...(hint === undefined ? {} : { hint }) });
  };
  const fail = (argument: string, expected: string, value: unknown, hint?: string): never => refuse(argument, expected, describeValue(value), hint);
  const number = (argument: keyof GenerateOptions, fallback: number, ok: (v: number) => boolean, expected: string): number => {
    const value = options[argument] === undefined ? fallback : options[argument]; // null is no number: an error, as for every option
    if (typeof value !== 'number' || !ok(value)) fail(argument, expected, value);
    return value as number;
  };
  const doSample = checkBoolean(options.doSample, { caller, argument: 'doSample', fallback: defaults.doSample ?? false });
  const given = SAMPLING_ONLY.find((key) => options[key] !== undefined);
  if (!doSample && given !== undefined) fail(given, 'used with doSample: true (a sampling option)', options[given], `Decoding is greedy${options.doSample === undefined ? " (generation_config.json's do_sample is not true)" : ''}: pass doSample: true, or leave ${given} out.`);
  const temperature = number('temperature', defaults.temperature ?? 1, (v) => v > 0 && Number.isFinite(v), 'a finite number > 0');
  const topK = options.topK === undefined ? (defaults.topK ?? 50) : checkInteger(options.topK, { caller, argument: 'topK', min: 0 });
  const topP = number('topP', defaults.topP ?? 1, (v) => v > 0 && v <= 1, 'a number in (0, 1] (1: off)');
  const minP = number('minP', defaults.minP ?? 0, (v) => v >= 0 && v <= 1, 'a number in [0, 1] (0: off)');
  const repetitionPenalty = number('repetitionPenalty', defaults.repetitionPenalty ?? 1, (v) => v > 0 && Number.isFinite(v), 'a finite number > 0 (1: off)');
  const seed = options.seed === undefined ? undefined : checkInteger(options.seed, { caller, argument: 'seed', min: 0, max: Number.MAX_SAFE_INTEGER });
  const limit = config.rotary === undefined ? config.maxPositionEmbeddings : 2 ** 24;
  const maxLength = options.maxLength === undefined ? config.maxPositionEmbeddings : checkInteger(options.maxLength, { caller, argument: 'maxLength', min: 1, max: limit });
  const explicitNew = options.maxNewTokens === undefined ? undefined : checkInteger(options.maxNewTokens, { caller, argument: 'maxNewTokens', min: 1 });
  const tokenizer = options.tokenizer;
  if (tokenizer !== undefined && (typeof tokenizer !== 'object' || tokenizer === null || typeof tokenizer.encode !== 'function' || typeof tokenizer.decode !== 'function')) fail('tokenizer', 'a tokenizer with encode and decode (loadTokenizer of @attnkit/tokenizers)', tokenizer);
  const stopGiven = options.stop === undefined ? [] : typeof options.stop === 'string' ? [options.stop] : options.stop;
  if (!Array.isArray(stopGiven)) fail('stop', 'a string or a list of strings', options.stop);
  const stop = Array.from(stopGiven as ArrayLike<unknown>, (s, i) => (typeof s === 'string' && s.length > 0 ? s : fail(`stop[${i}]`, 'a non-empty string', s)));
  if (stop.length > 0 && tokenizer === undefined) fail('stop', 'given with a tokenizer (stop strings are matched in the decoded text)', options.stop, 'Pass tokenizer: await loadTokenizer(folder).');
  const id = (argument: string, value: unknown): number => checkInteger(value, { caller, argument, min: 0, max: config.vocabSize - 1 });
  const eosGiven = options.eosTokenId;
  const eos = eosGiven === null ? [] : eosGiven === undefined ? defaults.eosTokenIds : typeof eosGiven === 'number' ? [id('eosTokenId', eosGiven)] : Array.isArray(eosGiven) ? eosGiven.map((v, i) => id(`eosTokenId[${i}]`, v)) : fail('eosTokenId', 'a token id, a list of them, or null (no end-of-sequence token)', eosGiven);
  const padTokenId = options.padTokenId === undefined ? (defaults.padTokenId ?? eos[0] ?? 0) : id('padTokenId', options.padTokenId);
  checkFunction(options.onToken, { caller, argument: 'onToken', expected: 'a function (token: GeneratedToken) => void' });
  checkAbortSignal(options.signal, { caller });
  const newTokens = (width: number): number => {
    const available = maxLength - width;
    if (available < 1) refuse('inputIds', `a prompt shorter than maxLength = ${maxLength} (room for at least one new token)`, `${width} tokens`, config.rotary === undefined ? `GPT-2 has ${config.maxPositionEmbeddings} positions: shorten the prompt.` : 'Shorten the prompt, or raise maxLength (the KV cache grows with it).');
    let count = explicitNew ?? defaults.maxNewTokens;
    if (count === undefined && defaults.maxLength !== undefined) {
      count = defaults.maxLength - width;
      if (count < 1) refuse('inputIds', `a prompt shorter than generation_config.json's max_length = ${defaults.maxLength}`, `${width} tokens`, 'Pass maxNewTokens.');
    }
    count ??= Math.min(20, available); // transformers: 20 new tokens, up to the position limit
    if (count > available) fail('maxNewTokens', `at most maxLength − prompt = ${maxLength} − ${width} = ${available}`, count, 'Lower maxNewTokens, or raise maxLength (the KV cache grows with it).');
    return count;
  };
  return { doSample, temperature, topK, topP, minP, repetitionPenalty, seed, newTokens, maxLength, stop, eos: new Set(eos), padTokenId, tokenizer, onToken: options.onToken, signal: options.signal };
}
