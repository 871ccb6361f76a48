import { InvalidArgumentError } from '@attnkit/errors';
import { ACTIVATIONS } from '@attnkit/nn';
import type { EncoderConfig, ModelType, PositionEmbeddingType } from './encoder-config.js';
import { checkNotRemoteCode } from './check-remote-code.js';
import { checkEncoderSize } from './encoder-size.js';

/** How a family writes its config.json: the key of each field, and the defaults of its config class. */
export interface EncoderConfigKeys {
  readonly vocabSize: string;
  readonly hiddenSize: string;
  readonly numHiddenLayers: string;
  readonly numAttentionHeads: string;
  readonly intermediateSize: string;
  readonly maxPositionEmbeddings: string;
  readonly hiddenAct: string;
  readonly hiddenDropoutProb: string;
  readonly attentionProbsDropoutProb: string;
  /** Default `pad_token_id`. */
  readonly padTokenId: number;
  /** Positions count from `pad_token_id + 1` (RoBERTa, XLM-R, MPNet). */
  readonly positionsAfterPadding: boolean;
  /** The family has token types (`type_vocab_size`). */
  readonly tokenTypes: boolean;
  /** The family reads `layer_norm_eps` (DistilBERT's config has none: 1e-12). */
  readonly layerNormEps: boolean;
  /** A separate `embedding_size`: `true` for ELECTRA's (default 128), `'hiddenSize'` for RoFormer's (absent or null: `hidden_size`). */
  readonly embeddingSize?: boolean | 'hiddenSize';
  /** MPNet's `relative_attention_num_buckets` (default 32). */
  readonly relativeAttentionBuckets?: boolean;
  /**
   * `position_embedding_type` may be `relative_key` or `relative_key_query` (BERT, RoBERTa, XLM-R,
   * ELECTRA, as transformers ≤ 4.57 builds them); `'rotary'`: the family is rotary (RoFormer) and
   * reads `rotary_value`. Absent: only `absolute`.
   */
  readonly positions?: 'relative' | 'rotary';
  /** The key of the norms' epsilon when it is not `layer_norm_eps` (ModernBERT: `norm_eps`). */
  readonly layerNormEpsKey?: string;
  /** The family config class's defaults where they are not BERT's (ModernBERT: eps 1e-5, dropouts 0, 8192 positions). */
  readonly defaults?: { readonly layerNormEps?: number; readonly dropout?: number; readonly maxPositionEmbeddings?: number };
}

/** BERT's key names, which most families share. */
export const BERT_KEYS = {
  vocabSize: 'vocab_size', hiddenSize: 'hidden_size', numHiddenLayers: 'num_hidden_layers', numAttentionHeads: 'num_attention_heads', intermediateSize: 'intermediate_size',
  maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'hidden_act', hiddenDropoutProb: 'hidden_dropout_prob', attentionProbsDropoutProb: 'attention_probs_dropout_prob',
} as const;

/** `json` as a Map of its top-level keys ("__proto__" stays a plain key), or a typed error. */
export function configEntries(json: unknown, caller: string): Map<string, unknown> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InvalidArgumentError({ caller, argument: 'config', expected: 'a JSON object (config.json)', received: JSON.stringify(json) ?? String(json) });
  }
  return new Map(Object.entries(json));
}

/**
 * The fields every encoder family shares, read from config.json's entries as `keys` names them:
 * sizes (positive integers, heads dividing the width), activation (a Hugging Face `ACT2FN` name
 * attnkit has), probabilities, `layer_norm_eps`, `pad_token_id` inside the vocabulary,
 * `position_embedding_type` (relative types where `keys.positions` allows them). A key whose value is `null`
 * reads as left out (its default; a key without one is refused). Settings attnkit
 * does not implement (a decoder, another position type) are errors, never silently ignored; the
 * config is refused past the size attnkit builds (`checkEncoderSize`).
 *
 * @example
 * const config = readEncoderConfig('bert', configEntries(json, 'parseBertConfig'), { ...BERT_KEYS, padTokenId: 0, positionsAfterPadding: false, tokenTypes: true, layerNormEps: true }, 'parseBertConfig');
 */
export function readEncoderConfig<T extends ModelType>(modelType: T, raw: ReadonlyMap<string, unknown>, keys: EncoderConfigKeys, caller: string): EncoderConfig & { readonly modelType: T } {
  const fail = (key: string, expected: string, received: unknown, hint?: string): never => {
    throw new InvalidArgumentError({ caller, argument: key, expected, received: JSON.stringify(received) ?? String(received), ...(hint === undefined ? {} : { hint }) });
  };
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
  const maxPositionEmbeddings = integer(keys.maxPositionEmbeddings, keys.defaults?.maxPositionEmbeddings);
  if (hiddenSize % numAttentionHeads !== 0) fail(keys.hiddenSize, `divisible by ${keys.numAttentionHeads} = ${numAttentionHeads}`, hiddenSize);
  const typeVocabSize = keys.tokenTypes ? integer('type_vocab_size', 2) : 0;
  const embeddingSize = keys.embeddingSize === true ? integer('embedding_size', 128) : keys.embeddingSize === 'hiddenSize' && raw.get('embedding_size') != null ? integer('embedding_size') : hiddenSize;
  const relativeAttentionNumBuckets = keys.relativeAttentionBuckets === true ? integer('relative_attention_num_buckets', 32) : 0;

  const act = raw.get(keys.hiddenAct) ?? 'gelu';
  if (typeof act !== 'string' || !Object.hasOwn(ACTIVATIONS, act)) fail(keys.hiddenAct, `one of ${Object.keys(ACTIVATIONS).map((a) => `"${a}"`).join(', ')}`, act);
  const range = raw.get('initializer_range') ?? 0.02;
  if (typeof range !== 'number' || !(range > 0 && range < 10)) fail('initializer_range', 'a number in (0, 10)', range);
  const positionEmbeddingType = readPositionType(raw, keys, fail);
  const rotaryValue = keys.positions === 'rotary' ? (raw.get('rotary_value') ?? false) : false;
  if (typeof rotaryValue !== 'boolean') fail('rotary_value', 'true or false', rotaryValue);
  if (raw.get('is_decoder') === true || raw.get('add_cross_attention') === true) fail('is_decoder', 'false: attnkit implements the encoder', true);
  const epsKey = keys.layerNormEpsKey ?? 'layer_norm_eps';
  const eps = keys.layerNormEps ? (raw.get(epsKey) ?? keys.defaults?.layerNormEps ?? 1e-12) : 1e-12;
  if (typeof eps !== 'number' || !(eps > 0 && eps < 1)) fail(epsKey, 'a number in (0, 1)', eps);
  const probability = (key: string): number => {
    const value = raw.get(key) ?? keys.defaults?.dropout ?? 0.1;
    if (typeof value !== 'number' || !(value >= 0 && value < 1)) fail(key, 'a probability in [0, 1)', value);
    return value as number;
  };
  const pad = raw.get('pad_token_id') ?? keys.padTokenId;
  if (typeof pad !== 'number' || !Number.isInteger(pad) || pad < 0 || pad >= vocabSize) fail('pad_token_id', `an id in [0, vocab_size = ${vocabSize})`, pad);
  const positionOffset = keys.positionsAfterPadding ? (pad as number) + 1 : 0;
  if (maxPositionEmbeddings <= positionOffset) fail(keys.maxPositionEmbeddings, `more than pad_token_id + 1 = ${positionOffset} (positions start after the padding id)`, maxPositionEmbeddings);
  const config = {
    modelType,
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
    maxSequenceLength: positionEmbeddingType === 'absolute' ? maxPositionEmbeddings - positionOffset : maxPositionEmbeddings, // relative: the distance table's reach; rotary: the sinusoidal table's
    relativeAttentionNumBuckets,
    positionEmbeddingType,
    rotaryValue: rotaryValue as boolean,
  };
  checkEncoderSize(config, caller); // a config.json claiming a billion-token vocabulary is refused here, not at allocation
  return config;
}

/** `position_embedding_type` as the family allows it (`keys.positions`); RoFormer's is `rotary`, whatever config.json says. */
function readPositionType(raw: ReadonlyMap<string, unknown>, keys: EncoderConfigKeys, fail: (key: string, expected: string, received: unknown, hint?: string) => never): PositionEmbeddingType {
  if (keys.positions === 'rotary') return 'rotary';
  const given = raw.get('position_embedding_type') ?? 'absolute';
  const allowed = keys.positions === 'relative' ? ['absolute', 'relative_key', 'relative_key_query'] : ['absolute'];
  if (!allowed.includes(given as string)) {
    const hint = keys.positions === 'relative'
      ? 'transformers ≤ 4.57 builds these three; ALiBi (Jina v2) and rotary (Nomic) BERTs are other architectures, with their own code.'
      : 'This family has absolute positions only; relative_key(_query) is read for BERT, RoBERTa, XLM-R and ELECTRA.';
    fail('position_embedding_type', allowed.map((t) => `"${t}"`).join(' or '), given, hint);
  }
  return given as PositionEmbeddingType;
}

/**
 * The `model_type` of a family's config.json: one of `accepted` (absent: the first), or a typed
 * error pointing to `parseEncoderConfig` for the other families.
 *
 * @example
 * familyModelType(configEntries(json, 'parseRobertaConfig'), ['roberta', 'xlm-roberta'], 'parseRobertaConfig'); // 'xlm-roberta'
 */
export function familyModelType<T extends ModelType>(raw: ReadonlyMap<string, unknown>, accepted: readonly T[], caller: string): T {
  const modelType = raw.get('model_type') ?? accepted[0];
  if (!(accepted as readonly unknown[]).includes(modelType)) {
    throw new InvalidArgumentError({ caller, argument: 'model_type', expected: accepted.map((t) => `"${t}"`).join(' or '), received: JSON.stringify(modelType) ?? String(modelType), hint: 'Other families load with loadEncoder (parseEncoderConfig).' });
  }
  return modelType as T;
}

/**
 * A family's config parser in one call: config.json's entries, a folder that needs its own code
 * refused (`checkNotRemoteCode`), its `model_type` (one of `modelTypes`, or absent), then the shared fields as `keys` names them.
 *
 * @example
 * export const parseElectraConfig = (json: unknown, caller = 'parseElectraConfig') => parseFamilyConfig(json, ['electra'], KEYS, caller);
 */
export function parseFamilyConfig<T extends ModelType>(json: unknown, modelTypes: readonly T[], keys: EncoderConfigKeys, caller: string): EncoderConfig & { readonly modelType: T } {
  const raw = configEntries(json, caller);
  checkNotRemoteCode(raw, caller); // Jina's model_type "bert" with its own code is not BERT
  return readEncoderConfig(familyModelType(raw, modelTypes, caller), raw, keys, caller);
}
