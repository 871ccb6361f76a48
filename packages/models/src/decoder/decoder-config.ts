import type { RotaryConfig } from '@attnkit/attention';

/** The Hugging Face `model_type`s of the decoder families attnkit builds, each from its own folder. */
export const DECODER_MODEL_TYPES = ['gpt2', 'llama', 'mistral', 'qwen2', 'qwen3'] as const;

/** One of {@link DECODER_MODEL_TYPES}. */
export type DecoderModelType = (typeof DECODER_MODEL_TYPES)[number];

/** How a decoder layer attends: to every earlier position, or to the last `slidingWindow` ones (transformers' `layer_types`). */
export type DecoderLayerType = 'full_attention' | 'sliding_attention';

/**
 * What every decoder family's config gives (camelCase here), in Llama's words: `hiddenSize` is
 * GPT-2's `n_embd`, `normEps` its `layer_norm_epsilon` (Llama's `rms_norm_eps`), and so on. Each
 * family's parser (`parseLlamaConfig`, `parseGpt2Config`, ...) reads its config.json once into this.
 */
export interface DecoderConfig {
  readonly modelType: DecoderModelType;
  /** V. */
  readonly vocabSize: number;
  /** E. */
  readonly hiddenSize: number;
  readonly numHiddenLayers: number;
  /** H. */
  readonly numAttentionHeads: number;
  /** Hkv, dividing H (grouped-query attention; H for GPT-2). */
  readonly numKeyValueHeads: number;
  /** D (`head_dim`, else E / H). */
  readonly headDim: number;
  /** The feed-forward width (GPT-2's `n_inner`, default 4E). */
  readonly intermediateSize: number;
  /** The positions the model was made for: GPT-2's learned table, Llama's trained context; the default bound of a KV cache. */
  readonly maxPositionEmbeddings: number;
  /** The feed-forward activation, a Hugging Face `hidden_act` name (`'silu'`, `'gelu_new'`, ...). */
  readonly hiddenAct: string;
  /** The eps of the norms (`rms_norm_eps`, GPT-2's `layer_norm_epsilon`). */
  readonly normEps: number;
  /** The language-model head is the token embedding (`tie_word_embeddings`): no `lm_head.weight`. */
  readonly tieWordEmbeddings: boolean;
  /** Biases on q, k and v (`attention_bias`; Qwen2: always). */
  readonly attentionBias: boolean;
  /** A bias on the output projection (Llama: as `attention_bias`; Qwen2: none). */
  readonly outputBias: boolean;
  /** Biases on the gated feed-forward (`mlp_bias`). */
  readonly mlpBias: boolean;
  /** Qwen3's RMSNorm of each query and key head (`q_norm`, `k_norm`). */
  readonly queryKeyNorm: boolean;
  /** The rotary position embedding (Llama, Mistral, Qwen); `undefined` for GPT-2's learned positions. */
  readonly rotary: RotaryConfig | undefined;
  /** One per layer: full causal attention, or a sliding window of `slidingWindow` positions. */
  readonly layerTypes: readonly DecoderLayerType[];
  /** The window of `sliding_attention` layers (Mistral's `sliding_window`); `undefined` when no layer slides. */
  readonly slidingWindow: number | undefined;
  /** Dropout on the attention weights in training mode (`attention_dropout`, GPT-2's `attn_pdrop`). */
  readonly attentionDropout: number;
  /** Std of the normal initialisation of a model built without weights. */
  readonly initializerRange: number;
  readonly bosTokenId: number | undefined;
  /** `eos_token_id` of config.json (one id or several; `generation_config.json`'s win in `generate`). */
  readonly eosTokenIds: readonly number[];
  readonly padTokenId: number | undefined;
}
