import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { configReader, decoderConfigEntries } from '../decoder/config-reader.js';
import type { DecoderConfig } from '../decoder/decoder-config.js';

/**
 * A model's generation defaults, as transformers reads them: `generation_config.json` when the folder
 * has one, else the special tokens of config.json (`GenerationConfig.from_model_config`). Options of
 * `generate` override each; what neither sets takes transformers' defaults (greedy, `temperature` 1,
 * `top_k` 50, `top_p` 1, `repetition_penalty` 1, 20 new tokens).
 */
export interface GenerationConfig {
  readonly doSample?: boolean;
  readonly temperature?: number;
  readonly topK?: number;
  readonly topP?: number;
  readonly minP?: number;
  readonly repetitionPenalty?: number;
  readonly maxNewTokens?: number;
  /** Prompt and new tokens together (transformers' `max_length`); `maxNewTokens` wins. */
  readonly maxLength?: number;
  /** Generation of a row stops after any of these. */
  readonly eosTokenIds: readonly number[];
  readonly padTokenId?: number;
  readonly bosTokenId?: number;
}

/** The keys of generation_config.json that attnkit reads; others (beam search, watermarks, ...) are reported by the loader. */
export const GENERATION_CONFIG_KEYS = ['do_sample', 'temperature', 'top_k', 'top_p', 'min_p', 'repetition_penalty', 'max_new_tokens', 'max_length', 'eos_token_id', 'pad_token_id', 'bos_token_id'];

/**
 * A model's {@link GenerationConfig}: from a parsed `generation_config.json` (`json`), or, without one,
 * from config.json's `bos_token_id`, `eos_token_id` and `pad_token_id` (`config`). Values out of
 * range are typed errors naming the key (`top_p` must be in (0, 1], ...).
 *
 * @example
 * const defaults = parseGenerationConfig(JSON.parse(await readFile('Qwen3-0.6B/generation_config.json', 'utf8')), config);
 * defaults.topK; // 20
 */
export function parseGenerationConfig(json: unknown, config: DecoderConfig, caller = 'parseGenerationConfig'): GenerationConfig {
  checkObject(config, { caller, argument: 'config', expected: "the model's parsed config.json (parseDecoderConfig)" });
  checkInteger(config.vocabSize, { caller, argument: 'config.vocabSize', min: 1 });
  if (!Array.isArray(config.eosTokenIds)) throw new InvalidArgumentError({ caller, argument: 'config.eosTokenIds', expected: 'a list of token ids (parseDecoderConfig)', received: describeValue(config.eosTokenIds) });
  const fromModel = { eosTokenIds: config.eosTokenIds, ...(config.padTokenId === undefined ? {} : { padTokenId: config.padTokenId }), ...(config.bosTokenId === undefined ? {} : { bosTokenId: config.bosTokenId }) };
  if (json === undefined) return fromModel;
  const raw = decoderConfigEntries(json, caller);
  const read = configReader(raw, caller);
  const has = (key: string) => raw.get(key) !== undefined && raw.get(key) !== null;
  const out: Record<string, unknown> = { eosTokenIds: raw.has('eos_token_id') ? read.tokenIds('eos_token_id', config.vocabSize) : config.eosTokenIds };
  if (has('do_sample')) out['doSample'] = read.boolean('do_sample', false);
  if (has('temperature')) out['temperature'] = read.number('temperature', 1, { min: 0, max: Infinity });
  if (has('top_k')) out['topK'] = read.integer('top_k', 50, 0);
  if (has('top_p')) out['topP'] = read.number('top_p', 1, { min: 0, max: 1, closedMax: true });
  if (has('min_p')) out['minP'] = read.number('min_p', 0, { min: 0, max: 1, closedMin: true, closedMax: true });
  if (has('repetition_penalty')) out['repetitionPenalty'] = read.number('repetition_penalty', 1, { min: 0, max: Infinity });
  if (has('max_new_tokens')) out['maxNewTokens'] = read.integer('max_new_tokens');
  if (has('max_length')) out['maxLength'] = read.integer('max_length');
  const pad = read.tokenId('pad_token_id', config.vocabSize) ?? config.padTokenId;
  const bos = read.tokenId('bos_token_id', config.vocabSize) ?? config.bosTokenId;
  if (pad !== undefined) out['padTokenId'] = pad;
  if (bos !== undefined) out['bosTokenId'] = bos;
  return out as unknown as GenerationConfig;
}
