/** The Hugging Face `rope_type`s attnkit implements (transformers' `ROPE_INIT_FUNCTIONS` and the models' default). */
export const ROPE_TYPES = ['default', 'linear', 'dynamic', 'llama3', 'yarn'] as const;

/** A Hugging Face `rope_type` attnkit implements. */
export type RopeType = (typeof ROPE_TYPES)[number];

/**
 * The rotary position embedding of a model: transformers' `rope_parameters` (4.x: `rope_scaling`
 * and `rope_theta`) with the config fields the RoPE init functions read, in attnkit's spelling
 * (`rope_theta` is `ropeTheta`, ...). `rotaryConfigFromHuggingFace` reads it from a config.json.
 * Which keys a `ropeType` reads (others are refused):
 *
 * | ropeType | reads |
 * | --- | --- |
 * | `default` | `ropeTheta`, `partialRotaryFactor` |
 * | `linear` | and `factor` |
 * | `dynamic` | and `factor`, `maxPositionEmbeddings` |
 * | `llama3` | and `factor`, `lowFreqFactor`, `highFreqFactor`, `originalMaxPositionEmbeddings` (default `maxPositionEmbeddings`) |
 * | `yarn` | and `factor`, `originalMaxPositionEmbeddings` (default `maxPositionEmbeddings`), `attentionFactor`, `betaFast`, `betaSlow`, `mscale`, `mscaleAllDim`, `truncate` |
 */
export interface RotaryConfig {
  /** D, the width of a query or key head (`head_dim`; `hidden_size / num_attention_heads` when a config has none). */
  readonly headDim: number;
  /** Default `'default'`. */
  readonly ropeType?: RopeType;
  /** The base wavelength (`rope_theta`, default 10000). */
  readonly ropeTheta?: number;
  /** The fraction of D that is rotated (`partial_rotary_factor`, default 1): the first `floor(D · factor)` dimensions, an even number. */
  readonly partialRotaryFactor?: number;
  /** `max_position_embeddings`: `dynamic` scales past it; `llama3` and `yarn` take it when `originalMaxPositionEmbeddings` is absent. */
  readonly maxPositionEmbeddings?: number;
  /** The scaling factor (≥ 1) of `linear`, `dynamic`, `llama3` and `yarn`. */
  readonly factor?: number;
  /** The context length of pre-training (`original_max_position_embeddings`), for `llama3` and `yarn`. */
  readonly originalMaxPositionEmbeddings?: number;
  /** `llama3`: wavelengths longer than `original / lowFreqFactor` are divided by `factor`. */
  readonly lowFreqFactor?: number;
  /** `llama3`: wavelengths shorter than `original / highFreqFactor` are kept; between the two, interpolated. */
  readonly highFreqFactor?: number;
  /** `yarn`: the scale of cos and sin (default from `factor`, `mscale` and `mscaleAllDim`). */
  readonly attentionFactor?: number;
  /** `yarn`: the rotation counts that bound the ramp (defaults 32 and 1). */
  readonly betaFast?: number;
  readonly betaSlow?: number;
  /** `yarn` (DeepSeek): with both set, the default attention factor is `mscale(factor, mscale) / mscale(factor, mscaleAllDim)`. */
  readonly mscale?: number;
  readonly mscaleAllDim?: number;
  /** `yarn`: round the ramp's bounds outwards to whole dimensions (default true). */
  readonly truncate?: boolean;
}

/** The keys of {@link RotaryConfig} by the rope type that reads them (`common`: every type). */
export const ROTARY_CONFIG_KEYS: Readonly<Record<RopeType | 'common', readonly (keyof RotaryConfig)[]>> = {
  common: ['headDim', 'ropeType', 'ropeTheta', 'partialRotaryFactor', 'maxPositionEmbeddings'],
  default: [],
  linear: ['factor'],
  dynamic: ['factor'],
  llama3: ['factor', 'lowFreqFactor', 'highFreqFactor', 'originalMaxPositionEmbeddings'],
  yarn: ['factor', 'originalMaxPositionEmbeddings', 'attentionFactor', 'betaFast', 'betaSlow', 'mscale', 'mscaleAllDim', 'truncate'],
};
