import type { EncoderConfig } from '@attnkit/models';

/** Hugging Face `config.json` keys of each {@link EncoderConfig} field (DistilBERT names them its own way). */
const STANDARD = { vocabSize: 'vocab_size', hiddenSize: 'hidden_size', numHiddenLayers: 'num_hidden_layers', numAttentionHeads: 'num_attention_heads', intermediateSize: 'intermediate_size', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'hidden_act', hiddenDropoutProb: 'hidden_dropout_prob', attentionProbsDropoutProb: 'attention_probs_dropout_prob' } as const;
const DISTILBERT = { vocabSize: 'vocab_size', hiddenSize: 'dim', numHiddenLayers: 'n_layers', numAttentionHeads: 'n_heads', intermediateSize: 'hidden_dim', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'activation', hiddenDropoutProb: 'dropout', attentionProbsDropoutProb: 'attention_dropout' } as const;
const ARCHITECTURES: Record<EncoderConfig['modelType'], string> = { bert: 'BertModel', distilbert: 'DistilBertModel', roberta: 'RobertaModel', 'xlm-roberta': 'XLMRobertaModel', electra: 'ElectraModel', mpnet: 'MPNetModel', roformer: 'RoFormerModel' };

/**
 * The Hugging Face `config.json` of an encoder: `original` (the folder's own `config.json`, so keys
 * attnkit does not read survive) overwritten with every value attnkit used, under the family's key
 * names, and `dtype: "float32"` (the weights are saved in float32).
 *
 * @example
 * encoderConfigJson(model.encoder.config, JSON.parse(await readFile('model/config.json', 'utf8')));
 * // { model_type: 'bert', hidden_size: 64, ..., dtype: 'float32' }
 */
export function encoderConfigJson(config: EncoderConfig, original: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const keys = config.modelType === 'distilbert' ? DISTILBERT : STANDARD;
  const out: Record<string, unknown> = { architectures: [ARCHITECTURES[config.modelType]], ...original, model_type: config.modelType };
  for (const [field, key] of Object.entries(keys)) out[key] = config[field as keyof typeof keys];
  out['initializer_range'] = config.initializerRange;
  out['pad_token_id'] = config.padTokenId;
  if (config.modelType !== 'distilbert') out['layer_norm_eps'] = config.layerNormEps;
  if (config.typeVocabSize > 0) out['type_vocab_size'] = config.typeVocabSize;
  if (config.modelType === 'electra' || config.modelType === 'roformer') out['embedding_size'] = config.embeddingSize;
  if (config.modelType === 'roformer') out['rotary_value'] = config.rotaryValue;
  else if (config.positionEmbeddingType !== 'absolute') out['position_embedding_type'] = config.positionEmbeddingType; // relative_key(_query)
  if (config.modelType === 'mpnet') out['relative_attention_num_buckets'] = config.relativeAttentionNumBuckets;
  delete out['torch_dtype']; // transformers ≥ 4.56 reads `dtype`
  out['dtype'] = 'float32';
  return out;
}
