import { InvalidArgumentError } from '@attnkit/errors';
import { rotaryConfigFromHuggingFace, type RotaryConfig } from '@attnkit/attention';
import { ACTIVATIONS } from '@attnkit/nn';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import { checkEncoderSize } from '../encoder/encoder-size.js';
import { configEntries, familyModelType, readEncoderConfig, type EncoderConfigKeys } from '../encoder/read-encoder-config.js';

/** ModernBERT's two kinds of layer: attention over every token, or over a sliding window (`layer_types`). */
export const MODERNBERT_LAYER_TYPES = ['full_attention', 'sliding_attention'] as const;

/** One of {@link MODERNBERT_LAYER_TYPES}. */
export type ModernBertLayerType = (typeof MODERNBERT_LAYER_TYPES)[number];

/**
 * A ModernBERT configuration, read from `config.json` (transformers 5.17's `ModernBertConfig`):
 * the shared encoder fields (`hiddenAct` is `hidden_activation`, `layerNormEps` is `norm_eps`,
 * `hiddenDropoutProb` is `mlp_dropout`, `attentionProbsDropoutProb` is `attention_dropout`; no token
 * types, no position table) and ModernBERT's own.
 */
export interface ModernBertConfig extends EncoderConfig {
  readonly modelType: 'modernbert';
  /** The kind of each layer (`layer_types`, or every `global_attn_every_n_layers`-th layer global, from layer 0). */
  readonly layerTypes: readonly ModernBertLayerType[];
  /** `local_attention`: the sliding window's width; a token sees those within `floor(localAttention / 2)` on each side. */
  readonly localAttention: number;
  /** The rotary embedding of the global layers (`rope_parameters.full_attention`, or `global_rope_theta`, default 160000). */
  readonly globalRotary: RotaryConfig;
  /** The rotary embedding of the sliding-window layers (`rope_parameters.sliding_attention`, or `local_rope_theta`, default 10000). */
  readonly localRotary: RotaryConfig;
  /** Biases of the LayerNorms (`norm_bias`, default false). */
  readonly normBias: boolean;
  /** Biases of `Wqkv` and `Wo` (`attention_bias`, default false). */
  readonly attentionBias: boolean;
  /** Biases of the MLP's `Wi` and `Wo` (`mlp_bias`, default false). */
  readonly mlpBias: boolean;
  /** Bias of the prediction head's `dense` (`classifier_bias`, default false). */
  readonly classifierBias: boolean;
  /** Bias of the masked-LM `decoder` (`decoder_bias`, default true). */
  readonly decoderBias: boolean;
  /** The masked-LM `decoder`'s weight is the token embeddings (`tie_word_embeddings`, default true). */
  readonly tieWordEmbeddings: boolean;
  /** How the sequence classifier pools the tokens (`classifier_pooling`): the first token, or the mean over the real ones. */
  readonly classifierPooling: 'cls' | 'mean';
  /** The prediction head's activation (`classifier_activation`, default `'gelu'`). */
  readonly classifierActivation: string;
  /** Dropout after the embeddings' norm (`embedding_dropout`, default 0). */
  readonly embeddingDropout: number;
}

const KEYS: EncoderConfigKeys = {
  vocabSize: 'vocab_size', hiddenSize: 'hidden_size', numHiddenLayers: 'num_hidden_layers', numAttentionHeads: 'num_attention_heads', intermediateSize: 'intermediate_size',
  maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'hidden_activation', hiddenDropoutProb: 'mlp_dropout', attentionProbsDropoutProb: 'attention_dropout',
  padTokenId: 50283, positionsAfterPadding: false, tokenTypes: false, layerNormEps: true, layerNormEpsKey: 'norm_eps',
  defaults: { layerNormEps: 1e-5, dropout: 0, maxPositionEmbeddings: 8192 },
};

/**
 * Validates a ModernBERT `config.json` (`model_type` `"modernbert"`), as transformers 5.17 reads it,
 * in both formats: `layer_types` and `rope_parameters` (by layer type) as 5.x saves them, or
 * `global_attn_every_n_layers` (default 3), `global_rope_theta` and `local_rope_theta` as older
 * folders on the Hub have them. Settings transformers ignores for inference (the flash-attention
 * ones, `sparse_prediction`, `reference_compile`) are ignored; everything else is checked, and a bad
 * value is an `InvalidArgumentError` naming its key: an unknown layer type, a head width
 * `hidden_size / num_attention_heads` that is odd (rotary embeddings turn pairs), an unknown
 * activation or `classifier_pooling`, a `rope_type` other than the implemented ones. A key whose
 * value is `null` reads as left out (its default, where it has one).
 *
 * @example
 * const config = parseModernBertConfig(JSON.parse(await readFile('ModernBERT-base/config.json', 'utf8')));
 * config.layerTypes[1]; // 'sliding_attention'
 */
export function parseModernBertConfig(json: unknown, caller = 'parseModernBertConfig'): ModernBertConfig {
  caller = typeof caller === 'string' ? caller : 'parseModernBertConfig'; // a caller only names the function in messages
  const raw = configEntries(json, caller);
  const encoder = readEncoderConfig(familyModelType(raw, ['modernbert'], caller), raw, KEYS, caller);
  const fail = (key: string, expected: string, received: unknown, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument: key, expected, received: JSON.stringify(received) ?? String(received), ...(hint === undefined ? {} : { hint }) });
  };
  const given = (key: string): unknown => (raw.get(key) === null ? undefined : raw.get(key));
  const flag = (key: string, fallback: boolean): boolean => {
    const value = given(key) ?? fallback;
    if (typeof value !== 'boolean') fail(key, 'true or false', value);
    return value as boolean;
  };
  const positive = (key: string, fallback: number): number => {
    const value = given(key) ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(key, 'a positive integer', value);
    return value as number;
  };
  const layers = encoder.numHiddenLayers;

  // layer kinds: layer_types (5.x), else every n-th layer global from layer 0 (global_attn_every_n_layers)
  let layerTypes: ModernBertLayerType[];
  const types = given('layer_types');
  if (types === undefined) {
    const every = positive('global_attn_every_n_layers', 3);
    layerTypes = Array.from({ length: layers }, (_, i) => (i % every === 0 ? 'full_attention' : 'sliding_attention'));
  } else {
    if (!Array.isArray(types) || types.length !== layers) fail('layer_types', `a list of num_hidden_layers = ${layers} layer types`, types);
    (types as unknown[]).forEach((type, i) => {
      if (!(MODERNBERT_LAYER_TYPES as readonly unknown[]).includes(type)) fail(`layer_types[${i}]`, MODERNBERT_LAYER_TYPES.map((t) => `"${t}"`).join(' or '), type);
    });
    layerTypes = types as ModernBertLayerType[];
  }
  const localAttention = positive('local_attention', 128);

  // rotary embeddings: one per layer type, rope_parameters.<type> (5.x) with global_rope_theta / local_rope_theta (older) as its rope_theta
  const rope = given('rope_parameters') ?? {};
  if (typeof rope !== 'object' || Array.isArray(rope) || Object.keys(rope as object).some((key) => !(MODERNBERT_LAYER_TYPES as readonly string[]).includes(key))) {
    fail('rope_parameters', 'an object of rope parameters by layer type: { full_attention: { rope_type, rope_theta }, sliding_attention: { ... } }', rope);
  }
  if (given('rope_scaling') !== undefined) fail('rope_scaling', 'absent: ModernBERT takes rope_parameters by layer type', given('rope_scaling'));
  const rotary = (type: ModernBertLayerType, thetaKey: string, fallback: number): RotaryConfig => {
    const theta = given(thetaKey) ?? fallback;
    if (typeof theta !== 'number' || !Number.isFinite(theta) || !(theta > 0)) fail(thetaKey, 'a finite number > 0', theta);
    const dict = (rope as Record<string, unknown>)[type] ?? {};
    if (typeof dict !== 'object' || dict === null || Array.isArray(dict)) fail(`rope_parameters.${type}`, 'an object of rope parameters ({ rope_type, rope_theta })', dict);
    const withTheta = { rope_type: 'default', ...(dict as object), ...((dict as Record<string, unknown>)['rope_theta'] == null ? { rope_theta: theta } : {}) };
    // the head width is hidden_size / num_attention_heads, as ModernBertAttention's (a head_dim key is not read)
    try {
      return rotaryConfigFromHuggingFace({ hidden_size: encoder.hiddenSize, num_attention_heads: encoder.numAttentionHeads, max_position_embeddings: encoder.maxPositionEmbeddings, rope_parameters: { [type]: withTheta } }, { layerType: type });
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      throw new InvalidArgumentError({ caller, argument: error.argument, expected: error.expected, received: error.received, ...(error.hint === undefined ? {} : { hint: error.hint }) }); // the config.json key, under this parser's name
    }
  };
  const globalRotary = rotary('full_attention', 'global_rope_theta', 160_000);
  const localRotary = rotary('sliding_attention', 'local_rope_theta', 10_000);

  const pooling = given('classifier_pooling') ?? 'cls';
  if (pooling !== 'cls' && pooling !== 'mean') fail('classifier_pooling', '"cls" or "mean"', pooling);
  const activation = given('classifier_activation') ?? 'gelu';
  if (typeof activation !== 'string' || !Object.hasOwn(ACTIVATIONS, activation)) fail('classifier_activation', `one of ${Object.keys(ACTIVATIONS).map((a) => `"${a}"`).join(', ')}`, activation);
  const embeddingDropout = given('embedding_dropout') ?? 0;
  if (typeof embeddingDropout !== 'number' || !(embeddingDropout >= 0 && embeddingDropout < 1)) fail('embedding_dropout', 'a probability in [0, 1)', embeddingDropout);

  const config: ModernBertConfig = {
    ...encoder,
    maxSequenceLength: encoder.maxPositionEmbeddings,
    layerTypes,
    localAttention,
    globalRotary,
    localRotary,
    normBias: flag('norm_bias', false),
    attentionBias: flag('attention_bias', false),
    mlpBias: flag('mlp_bias', false),
    classifierBias: flag('classifier_bias', false),
    decoderBias: flag('decoder_bias', true),
    tieWordEmbeddings: flag('tie_word_embeddings', true),
    classifierPooling: pooling as 'cls' | 'mean',
    classifierActivation: activation as string,
    embeddingDropout: embeddingDropout as number,
  };
  // the gated MLP has three I·E matrices (Wi is [2I, E]), BERT's feed-forward two: the size bound counts 1.5 I
  checkEncoderSize({ ...config, intermediateSize: Math.ceil(config.intermediateSize * 1.5) }, caller);
  return config;
}
