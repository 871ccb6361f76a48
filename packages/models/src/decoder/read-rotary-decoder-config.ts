import { rotaryConfigFromHuggingFace } from '@attnkit/attention';
import { InvalidArgumentError } from '@attnkit/errors';
import type { DecoderConfig, DecoderLayerType, DecoderModelType } from './decoder-config.js';
import { configReader } from './config-reader.js';
import { checkDecoderSize } from './decoder-size.js';

/** How a Llama-style family (Llama, Mistral, Qwen2, Qwen3) differs in its config.json. */
export interface RotaryFamilyKeys {
  /** Default `max_position_embeddings` of the family's config class. */
  readonly maxPositionEmbeddings: number;
  /** Where the attention biases come from: `attention_bias` (q, k, v and o: Llama), q, k and v always (Qwen2), none (Mistral), `attention_bias` on q, k, v and o (Qwen3). */
  readonly attentionBias: 'config' | 'qkv' | 'none';
  /** The family reads `mlp_bias` (Llama). */
  readonly mlpBias: boolean;
  /** Qwen3's q_norm and k_norm. */
  readonly queryKeyNorm: boolean;
  /** How layers slide: never (Llama), all of them when `sliding_window` is set (Mistral), by `layer_types` / `use_sliding_window` and `max_window_layers` (Qwen2, Qwen3). */
  readonly sliding: 'none' | 'all' | 'layer_types';
  /** The `sliding_window` of a config.json without the key (Mistral's config class: 4096). */
  readonly defaultSlidingWindow?: number;
}

const LAYER_TYPES: readonly DecoderLayerType[] = ['full_attention', 'sliding_attention'];

/**
 * A Llama-style config.json read into a {@link DecoderConfig}: sizes (positive integers, key/value
 * heads dividing the heads), `hidden_act`, `rms_norm_eps`, the rotary embedding
 * (`rotaryConfigFromHuggingFace`: `rope_parameters` or `rope_scaling`, every `rope_type` attnkit
 * implements; another is an error naming the key), biases, tying, sliding windows per layer, and the
 * special token ids. Settings these families do not have in transformers (a `partial_rotary_factor`,
 * a layer type other than full or sliding attention) are errors naming the key; the config is
 * refused past the size attnkit builds (`checkDecoderSize`).
 *
 * @example
 * const config = readRotaryDecoderConfig('llama', decoderConfigEntries(json, 'parseLlamaConfig'), LLAMA_KEYS, 'parseLlamaConfig');
 */
export function readRotaryDecoderConfig<T extends DecoderModelType>(modelType: T, raw: ReadonlyMap<string, unknown>, keys: RotaryFamilyKeys, caller: string): DecoderConfig & { readonly modelType: T } {
  const read = configReader(raw, caller);
  const vocabSize = read.integer('vocab_size');
  const hiddenSize = read.integer('hidden_size');
  const numHiddenLayers = read.integer('num_hidden_layers');
  const numAttentionHeads = read.integer('num_attention_heads');
  const numKeyValueHeads = read.integer('num_key_value_heads', numAttentionHeads);
  if (numAttentionHeads % numKeyValueHeads !== 0) read.fail('num_key_value_heads', `a divisor of num_attention_heads = ${numAttentionHeads}`, numKeyValueHeads);
  if (raw.get('head_dim') == null && hiddenSize % numAttentionHeads !== 0) read.fail('hidden_size', `divisible by num_attention_heads = ${numAttentionHeads} (or a head_dim given)`, hiddenSize);
  const headDim = read.integer('head_dim', hiddenSize / numAttentionHeads);
  read.only('partial_rotary_factor', [1], `transformers' ${modelType} rotates every dimension of a head`);
  let rotary;
  try {
    rotary = rotaryConfigFromHuggingFace(Object.fromEntries([...raw].filter(([key]) => key !== '__proto__')));
  } catch (error) {
    if (!(error instanceof InvalidArgumentError)) throw error;
    const { argument, expected, received, hint } = error; // the config.json key, under this parser's name
    throw new InvalidArgumentError({ caller, argument, expected, received, ...(hint === undefined ? {} : { hint }) });
  }
  const bias = keys.attentionBias === 'config' ? read.boolean('attention_bias', false) : keys.attentionBias === 'qkv';
  const slidingWindow = keys.sliding === 'none' ? undefined : !raw.has('sliding_window') ? keys.defaultSlidingWindow : raw.get('sliding_window') === null ? undefined : read.integer('sliding_window');
  let layerTypes: DecoderLayerType[] = Array.from({ length: numHiddenLayers }, () => (keys.sliding === 'all' && slidingWindow !== undefined ? 'sliding_attention' : 'full_attention'));
  if (keys.sliding === 'layer_types') {
    const useSliding = read.boolean('use_sliding_window', false);
    const firstSliding = read.integer('max_window_layers', numHiddenLayers, 0);
    const given = raw.get('layer_types');
    if (given == null) layerTypes = layerTypes.map((type, i) => (useSliding && slidingWindow !== undefined && i >= firstSliding ? 'sliding_attention' : type));
    else {
      if (!Array.isArray(given) || given.length !== numHiddenLayers) read.fail('layer_types', `a list of num_hidden_layers = ${numHiddenLayers} layer types`, given);
      layerTypes = (given as unknown[]).map((type, i) => {
        if (!(LAYER_TYPES as readonly unknown[]).includes(type)) read.fail(`layer_types[${i}]`, LAYER_TYPES.map((t) => `"${t}"`).join(' or '), type);
        return type as DecoderLayerType;
      });
    }
  }
  const sliding = layerTypes.includes('sliding_attention');
  if (sliding && slidingWindow === undefined) read.fail('sliding_window', 'a positive integer (layer_types has sliding_attention layers)', raw.get('sliding_window'));
  const config = {
    modelType,
    vocabSize,
    hiddenSize,
    numHiddenLayers,
    numAttentionHeads,
    numKeyValueHeads,
    headDim,
    intermediateSize: read.integer('intermediate_size'),
    maxPositionEmbeddings: read.integer('max_position_embeddings', keys.maxPositionEmbeddings),
    hiddenAct: read.activation('hidden_act', 'silu'),
    normEps: read.number('rms_norm_eps', 1e-6, { min: 0, max: 1 }),
    tieWordEmbeddings: read.boolean('tie_word_embeddings', false),
    attentionBias: bias,
    outputBias: keys.attentionBias === 'config' && bias,
    mlpBias: keys.mlpBias ? read.boolean('mlp_bias', false) : false,
    queryKeyNorm: keys.queryKeyNorm,
    rotary,
    layerTypes,
    slidingWindow: sliding ? slidingWindow : undefined,
    attentionDropout: read.number('attention_dropout', 0, { min: 0, max: 1, closedMin: true }),
    initializerRange: read.number('initializer_range', 0.02, { min: 0, max: 10 }),
    bosTokenId: read.tokenId('bos_token_id', vocabSize),
    eosTokenIds: read.tokenIds('eos_token_id', vocabSize),
    padTokenId: read.tokenId('pad_token_id', vocabSize),
  };
  checkDecoderSize(config, caller);
  return config;
}

/**
 * The `model_type` of a decoder family's config.json: one of `accepted` (absent: the first), or a
 * typed error pointing to `parseDecoderConfig` for the other families.
 *
 * @example
 * decoderFamilyType(raw, ['llama', 'mistral'], 'parseLlamaConfig'); // 'mistral'
 */
export function decoderFamilyType<T extends DecoderModelType>(raw: ReadonlyMap<string, unknown>, accepted: readonly T[], caller: string): T {
  const modelType = raw.get('model_type') ?? accepted[0];
  if (!(accepted as readonly unknown[]).includes(modelType)) {
    throw new InvalidArgumentError({ caller, argument: 'model_type', expected: accepted.map((t) => `"${t}"`).join(' or '), received: JSON.stringify(modelType) ?? String(modelType), hint: 'Other decoder families load with loadCausalLM (parseDecoderConfig).' });
  }
  return modelType as T;
}
