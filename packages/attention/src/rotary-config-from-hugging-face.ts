import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { checkRotaryConfig } from './check-rotary-config.js';
import type { RotaryConfig } from './rotary-config.js';

/** config.json keys of a rope dict, in attnkit's spelling. */
const ROPE_KEYS: Readonly<Record<string, keyof RotaryConfig>> = {
  rope_type: 'ropeType',
  rope_theta: 'ropeTheta',
  partial_rotary_factor: 'partialRotaryFactor',
  factor: 'factor',
  original_max_position_embeddings: 'originalMaxPositionEmbeddings',
  low_freq_factor: 'lowFreqFactor',
  high_freq_factor: 'highFreqFactor',
  attention_factor: 'attentionFactor',
  beta_fast: 'betaFast',
  beta_slow: 'betaSlow',
  mscale: 'mscale',
  mscale_all_dim: 'mscaleAllDim',
  truncate: 'truncate',
};

/** Options of {@link rotaryConfigFromHuggingFace}. */
export interface RotaryConfigFromHuggingFaceOptions {
  /** For configs with one rope dict per layer type (Gemma 3: `rope_parameters.sliding_attention`): the layer type to read. */
  readonly layerType?: string;
}

/**
 * The {@link RotaryConfig} of a Hugging Face config.json, read as transformers 5.17 standardises it:
 * the rope dict is `rope_parameters` (5.x) or `rope_scaling` (4.x; `type` is the old `rope_type`);
 * `rope_theta` and `partial_rotary_factor` come from it or from the top level (default 10000 and
 * 1); a top-level `original_max_position_embeddings` wins over the dict's (Phi-3); `head_dim`, or
 * `hidden_size / num_attention_heads`. A key of the rope dict that transformers does not read, an
 * unknown `rope_type`, or a bad value is an `InvalidArgumentError` naming the config.json key
 * (`rope_scaling.low_freq_factor`); `null` values count as absent, as transformers reads them. For
 * per-layer-type rope dicts, `layerType` picks one.
 *
 * @example
 * const rotary = rotaryConfigFromHuggingFace(JSON.parse(configJson)); // { headDim: 128, ropeType: 'llama3', ropeTheta: 500000, ... }
 * new RotaryEmbedding(rotary);
 */
export function rotaryConfigFromHuggingFace(config: Readonly<Record<string, unknown>>, options: RotaryConfigFromHuggingFaceOptions = {}): RotaryConfig {
  const caller = 'rotaryConfigFromHuggingFace';
  checkObject(config, { caller, argument: 'config', expected: 'a Hugging Face config.json object ({ head_dim or hidden_size and num_attention_heads, rope_parameters or rope_scaling, ... })' });
  const { layerType } = checkOptionKeys(options, ['layerType'], caller);
  const given = (key: string): unknown => (config[key] === null ? undefined : config[key]);
  let dictName = given('rope_scaling') !== undefined ? 'rope_scaling' : 'rope_parameters';
  let dict = given(dictName) ?? {};
  checkObject(dict, { caller, argument: dictName, expected: 'an object of rope parameters ({ rope_type, factor, ... })' });
  if (layerType !== undefined) {
    if (typeof layerType !== 'string' || !Object.hasOwn(dict, layerType)) {
      throw new InvalidArgumentError({ caller, argument: 'layerType', expected: `a layer type that ${dictName} has (${Object.keys(dict).join(', ') || 'none'})`, received: describeValue(layerType) });
    }
    dictName = `${dictName}.${layerType}`;
    dict = (dict as Record<string, unknown>)[layerType] ?? {};
    checkObject(dict, { caller, argument: dictName, expected: 'an object of rope parameters ({ rope_type, factor, ... })' });
  }
  const names = new Map<keyof RotaryConfig, string>();
  const out: Record<string, unknown> = {};
  const set = (key: keyof RotaryConfig, value: unknown, name: string) => {
    if (value === undefined || value === null) return;
    out[key] = value;
    names.set(key, name);
  };
  for (const [key, value] of Object.entries(dict as Record<string, unknown>)) {
    const camel = key === 'type' ? 'ropeType' : ROPE_KEYS[key];
    if (camel === undefined) {
      throw new InvalidArgumentError({ caller, argument: `${dictName}.${key}`, expected: `absent: transformers reads ${Object.keys(ROPE_KEYS).join(', ')} (and the old 'type') from ${dictName}`, received: describeValue(value) });
    }
    if (key === 'type' && (dict as Record<string, unknown>)['rope_type'] !== undefined) continue; // rope_type wins, as in transformers
    set(camel, value, `${dictName}.${key}`);
  }
  if (out['ropeTheta'] === undefined) set('ropeTheta', given('rope_theta'), 'rope_theta');
  if (out['partialRotaryFactor'] === undefined) set('partialRotaryFactor', given('partial_rotary_factor'), 'partial_rotary_factor');
  set('originalMaxPositionEmbeddings', given('original_max_position_embeddings'), 'original_max_position_embeddings'); // top level first (Phi-3)
  set('maxPositionEmbeddings', given('max_position_embeddings'), 'max_position_embeddings');
  if (given('head_dim') !== undefined) {
    set('headDim', given('head_dim'), 'head_dim');
  } else {
    const hidden = checkInteger(given('hidden_size'), { caller, argument: 'hidden_size', min: 1 });
    const heads = checkInteger(given('num_attention_heads'), { caller, argument: 'num_attention_heads', min: 1 });
    set('headDim', Math.floor(hidden / heads), 'hidden_size / num_attention_heads');
  }
  const rotary = out as unknown as RotaryConfig;
  // transformers moves a top-level original_max_position_embeddings into the rope dict only for the types that read it
  const readsOriginal = rotary.ropeType === 'llama3' || rotary.ropeType === 'yarn';
  if (!readsOriginal && names.get('originalMaxPositionEmbeddings') === 'original_max_position_embeddings') delete out['originalMaxPositionEmbeddings'];
  const snake = Object.fromEntries(Object.entries(ROPE_KEYS).map(([hf, camel]) => [camel, `${dictName}.${hf}`]));
  const top: Partial<Record<keyof RotaryConfig, string>> = { headDim: 'head_dim', maxPositionEmbeddings: 'max_position_embeddings' };
  checkRotaryConfig(rotary, caller, (key) => names.get(key) ?? top[key] ?? snake[key] ?? key); // errors name the config.json key
  return rotary;
}
