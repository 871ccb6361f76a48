import type { DecoderConfig } from '../decoder/decoder-config.js';
import { configReader, decoderConfigEntries } from '../decoder/config-reader.js';
import { checkDecoderSize } from '../decoder/decoder-size.js';
import { decoderFamilyType } from '../decoder/read-rotary-decoder-config.js';

/** A GPT-2 configuration, read from a Hugging Face `config.json` in Llama's words (`n_embd` is `hiddenSize`, ...). */
export interface Gpt2Config extends DecoderConfig {
  readonly modelType: 'gpt2';
  /** Scores divided by √D (`scale_attn_weights`, default true). */
  readonly scaleAttnWeights: boolean;
  /** Layer i's scores also divided by i + 1 (`scale_attn_by_inverse_layer_idx`, default false). */
  readonly scaleAttnByInverseLayerIdx: boolean;
}

/** `<|endoftext|>` of GPT-2's vocabulary: `GPT2Config`'s default `bos_token_id` and `eos_token_id`. */
const ENDOFTEXT = 50256;

/**
 * Validates a Hugging Face GPT-2 `config.json` (already parsed; `model_type` `"gpt2"` or absent) and
 * returns the fields attnkit uses, with `GPT2Config`'s defaults (`n_positions` 1024, `n_inner` 4 ·
 * `n_embd`, `gelu_new`, `layer_norm_epsilon` 1e-5, a tied head). Cross-attention (`add_cross_attention`)
 * and an unknown `activation_function` are errors naming the key; `reorder_and_upcast_attn` only
 * changes the order of float16 operations in transformers, so it is accepted.
 *
 * @example
 * const config = parseGpt2Config(JSON.parse(await readFile('gpt2/config.json', 'utf8')));
 */
export function parseGpt2Config(json: unknown, caller = 'parseGpt2Config'): Gpt2Config {
  const raw = decoderConfigEntries(json, caller);
  const modelType = decoderFamilyType(raw, ['gpt2'], caller);
  const read = configReader(raw, caller);
  read.only('add_cross_attention', [false], 'attnkit implements the decoder-only GPT-2');
  const vocabSize = read.integer('vocab_size', 50257);
  const hiddenSize = read.integer('n_embd', 768);
  const heads = read.integer('n_head', 12);
  if (hiddenSize % heads !== 0) read.fail('n_embd', `divisible by n_head = ${heads}`, hiddenSize);
  const layers = read.integer('n_layer', 12);
  const config: Gpt2Config = {
    modelType,
    vocabSize,
    hiddenSize,
    numHiddenLayers: layers,
    numAttentionHeads: heads,
    numKeyValueHeads: heads,
    headDim: hiddenSize / heads,
    intermediateSize: read.integer('n_inner', 4 * hiddenSize),
    maxPositionEmbeddings: read.integer('n_positions', 1024),
    hiddenAct: read.activation('activation_function', 'gelu_new'),
    normEps: read.number('layer_norm_epsilon', 1e-5, { min: 0, max: 1 }),
    tieWordEmbeddings: read.boolean('tie_word_embeddings', true),
    attentionBias: true,
    outputBias: true,
    mlpBias: true,
    queryKeyNorm: false,
    rotary: undefined,
    layerTypes: Array.from({ length: layers }, () => 'full_attention' as const),
    slidingWindow: undefined,
    attentionDropout: read.number('attn_pdrop', 0.1, { min: 0, max: 1, closedMin: true }),
    initializerRange: read.number('initializer_range', 0.02, { min: 0, max: 10 }),
    bosTokenId: raw.has('bos_token_id') ? read.tokenId('bos_token_id', vocabSize) : ENDOFTEXT < vocabSize ? ENDOFTEXT : undefined,
    eosTokenIds: raw.has('eos_token_id') ? read.tokenIds('eos_token_id', vocabSize) : ENDOFTEXT < vocabSize ? [ENDOFTEXT] : [],
    padTokenId: read.tokenId('pad_token_id', vocabSize),
    scaleAttnWeights: read.boolean('scale_attn_weights', true),
    scaleAttnByInverseLayerIdx: read.boolean('scale_attn_by_inverse_layer_idx', false),
  };
  read.boolean('reorder_and_upcast_attn', false); // a boolean; the same numbers in float32
  checkDecoderSize(config, caller);
  return config;
}
