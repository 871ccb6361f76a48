import { InvalidArgumentError } from '@attnkit/errors';
import { ACTIVATIONS } from '@attnkit/nn';
import type { BertConfig } from './bert-config.js';
import { checkEncoderSize } from './encoder-size.js';

/** The Hugging Face `model_type`s attnkit builds, each from its own model file. */
export const MODEL_TYPES = ['bert', 'distilbert', 'roberta', 'xlm-roberta', 'electra', 'mpnet'] as const;

/** One of {@link MODEL_TYPES}. */
export type ModelType = (typeof MODEL_TYPES)[number];

/**
 * The configuration of any supported encoder, read from a Hugging Face `config.json` (camelCase
 * here). Every family is described in BERT's words (`hiddenSize` is DistilBERT's `dim`, ...).
 */
export interface EncoderConfig extends BertConfig {
  readonly modelType: ModelType;
  /** Width of the token embeddings: ELECTRA's `embedding_size` (projected to `hiddenSize`); `hiddenSize` otherwise. */
  readonly embeddingSize: number;
  /**
   * Position id of the first token: 0, or `pad_token_id + 1` for the families that count positions
   * from the padding id (RoBERTa, XLM-R, MPNet), whose padding tokens sit at `pad_token_id`.
   */
  readonly positionOffset: number;
  /** The longest sequence the position table allows: `maxPositionEmbeddings - positionOffset`. */
  readonly maxSequenceLength: number;
  /** MPNet's relative position buckets (`relative_attention_num_buckets`); 0 for the others. */
  readonly relativeAttentionNumBuckets: number;
}

/** Config keys of each family, in BERT's names (DistilBERT renames them). */
const KEYS = {
  standard: { vocabSize: 'vocab_size', hiddenSize: 'hidden_size', numHiddenLayers: 'num_hidden_layers', numAttentionHeads: 'num_attention_heads', intermediateSize: 'intermediate_size', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'hidden_act', hiddenDropoutProb: 'hidden_dropout_prob', attentionProbsDropoutProb: 'attention_probs_dropout_prob' },
  distilbert: { vocabSize: 'vocab_size', hiddenSize: 'dim', numHiddenLayers: 'n_layers', numAttentionHeads: 'n_heads', intermediateSize: 'hidden_dim', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'activation', hiddenDropoutProb: 'dropout', attentionProbsDropoutProb: 'attention_dropout' },
} as const;

/** Per family: default padding id, whether positions count from it, token types, and defaults HF's config classes use. */
const FAMILY: Record<ModelType, { readonly pad: number; readonly offset: boolean; readonly types: boolean; readonly eps: number }> = {
  bert: { pad: 0, offset: false, types: true, eps: 1e-12 },
  distilbert: { pad: 0, offset: false, types: false, eps: 1e-12 },
  roberta: { pad: 1, offset: true, types: true, eps: 1e-12 },
  'xlm-roberta': { pad: 1, offset: true, types: true, eps: 1e-12 },
  electra: { pad: 0, offset: false, types: true, eps: 1e-12 },
  mpnet: { pad: 1, offset: true, types: false, eps: 1e-12 },
};

/**
 * Validates a Hugging Face `config.json` (already parsed) of any family in {@link MODEL_TYPES}
 * and returns what attnkit uses. Settings attnkit does not implement (an unknown `hidden_act`,
 * relative position embeddings in BERT, a decoder) and unknown `model_type`s are errors that
 * name the supported values, never silently ignored. A config without `model_type` is BERT's.
 *
 * @example
 * const config = parseEncoderConfig(JSON.parse(await readFile('model/config.json', 'utf8')));
 * config.modelType; // 'roberta'
 */
export function parseEncoderConfig(json: unknown, caller = 'parseEncoderConfig'): EncoderConfig {
  const fail = (key: string, expected: string, received: unknown, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument: key, expected, received: JSON.stringify(received) ?? String(received), ...(hint === undefined ? {} : { hint }) });
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('config', 'a JSON object (config.json)', json);
  const raw = new Map(Object.entries(json as object)); // a Map: keys such as "__proto__" stay plain keys
  const modelType = raw.get('model_type') ?? 'bert';
  if (typeof modelType !== 'string' || !(MODEL_TYPES as readonly string[]).includes(modelType)) {
    fail('model_type', `one of ${MODEL_TYPES.map((t) => `"${t}"`).join(', ')}`, modelType, 'Rotary and ALiBi encoders (ModernBERT, NomicBERT, Jina v2, GTE v1.5) are not supported yet; docs/models.md lists what loads.');
  }
  const type = modelType as ModelType;
  const family = FAMILY[type];
  const keys = type === 'distilbert' ? KEYS.distilbert : KEYS.standard;
  const integer = (key: string, fallback?: number, min = 1): number => {
    const value = raw.get(key) ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(key, min === 0 ? 'a non-negative integer' : 'a positive integer', value);
    return value as number;
  };
  const vocabSize = integer(keys.vocabSize);
  const hiddenSize = integer(keys.hiddenSize);
  const numHiddenLayers = integer(keys.numHiddenLayers);
  const numAttentionHeads = integer(keys.numAttentionHeads);
  const intermediateSize = integer(keys.intermediateSize);
  const maxPositionEmbeddings = integer(keys.maxPositionEmbeddings);
  if (hiddenSize % numAttentionHeads !== 0) fail(keys.hiddenSize, `divisible by ${keys.numAttentionHeads} = ${numAttentionHeads}`, hiddenSize);
  const typeVocabSize = family.types ? integer('type_vocab_size', 2) : 0;
  const embeddingSize = type === 'electra' ? integer('embedding_size', 128) : hiddenSize;
  const relativeAttentionNumBuckets = type === 'mpnet' ? integer('relative_attention_num_buckets', 32) : 0;

  const act = raw.get(keys.hiddenAct) ?? 'gelu';
  if (typeof act !== 'string' || !Object.hasOwn(ACTIVATIONS, act)) fail(keys.hiddenAct, `one of ${Object.keys(ACTIVATIONS).map((a) => `"${a}"`).join(', ')}`, act);
  const range = raw.get('initializer_range') ?? 0.02;
  if (typeof range !== 'number' || !(range > 0 && range < 10)) fail('initializer_range', 'a number in (0, 10)', range);
  const positions = raw.get('position_embedding_type') ?? 'absolute';
  if (positions !== 'absolute') fail('position_embedding_type', '"absolute" (relative position embeddings are not implemented)', positions);
  if (raw.get('is_decoder') === true || raw.get('add_cross_attention') === true) fail('is_decoder', 'false: attnkit implements the encoder', true);
  const eps = type === 'distilbert' ? family.eps : (raw.get('layer_norm_eps') ?? family.eps);
  if (typeof eps !== 'number' || !(eps > 0 && eps < 1)) fail('layer_norm_eps', 'a number in (0, 1)', eps);
  const probability = (key: string): number => {
    const value = raw.get(key) ?? 0.1;
    if (typeof value !== 'number' || !(value >= 0 && value < 1)) fail(key, 'a probability in [0, 1)', value);
    return value as number;
  };
  const pad = raw.get('pad_token_id') ?? family.pad;
  if (typeof pad !== 'number' || !Number.isInteger(pad) || pad < 0 || pad >= vocabSize) fail('pad_token_id', `an id in [0, vocab_size = ${vocabSize})`, pad);
  const positionOffset = family.offset ? (pad as number) + 1 : 0;
  if (maxPositionEmbeddings <= positionOffset) fail(keys.maxPositionEmbeddings, `more than pad_token_id + 1 = ${positionOffset} (positions start after the padding id)`, maxPositionEmbeddings);
  const config: EncoderConfig = {
    modelType: type,
    vocabSize,
    hiddenSize,
    numHiddenLayers,
    numAttentionHeads,
    intermediateSize,
    maxPositionEmbeddings,
    typeVocabSize,
    layerNormEps: eps as number,
    hiddenDropoutProb: probability(keys.hiddenDropoutProb),
    attentionProbsDropoutProb: probability(keys.attentionProbsDropoutProb),
    padTokenId: pad as number,
    hiddenAct: act as string,
    initializerRange: range as number,
    embeddingSize,
    positionOffset,
    maxSequenceLength: maxPositionEmbeddings - positionOffset,
    relativeAttentionNumBuckets,
  };
  checkEncoderSize(config, caller); // a config.json claiming a billion-token vocabulary is refused here, not at allocation
  return config;
}
