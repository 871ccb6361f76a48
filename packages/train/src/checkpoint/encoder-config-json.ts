import type { EncoderConfig, ModernBertConfig } from '@attnkit/models';

/** Hugging Face `config.json` keys of each {@link EncoderConfig} field (DistilBERT names them its own way). */
const STANDARD = { vocabSize: 'vocab_size', hiddenSize: 'hidden_size', numHiddenLayers: 'num_hidden_layers', numAttentionHeads: 'num_attention_heads', intermediateSize: 'intermediate_size', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'hidden_act', hiddenDropoutProb: 'hidden_dropout_prob', attentionProbsDropoutProb: 'attention_probs_dropout_prob' } as const;
const DISTILBERT = { vocabSize: 'vocab_size', hiddenSize: 'dim', numHiddenLayers: 'n_layers', numAttentionHeads: 'n_heads', intermediateSize: 'hidden_dim', maxPositionEmbeddings: 'max_position_embeddings', hiddenAct: 'activation', hiddenDropoutProb: 'dropout', attentionProbsDropoutProb: 'attention_dropout' } as const;
const MODERNBERT = { ...STANDARD, hiddenAct: 'hidden_activation', hiddenDropoutProb: 'mlp_dropout', attentionProbsDropoutProb: 'attention_dropout' } as const;
const ARCHITECTURES: Record<EncoderConfig['modelType'], string> = { bert: 'BertModel', distilbert: 'DistilBertModel', roberta: 'RobertaModel', 'xlm-roberta': 'XLMRobertaModel', electra: 'ElectraModel', mpnet: 'MPNetModel', roformer: 'RoFormerModel', modernbert: 'ModernBertModel' };

/** ModernBERT's own keys, as transformers 5.17 saves them (`layer_types`, `rope_parameters` by layer type). */
function modernBertKeys(config: ModernBertConfig): Record<string, unknown> {
  const rope = ({ ropeType = 'default', ropeTheta, partialRotaryFactor }: ModernBertConfig['globalRotary']) => ({ rope_type: ropeType, rope_theta: ropeTheta, ...(partialRotaryFactor === undefined ? {} : { partial_rotary_factor: partialRotaryFactor }) });
  return {
    norm_eps: config.layerNormEps,
    layer_types: [...config.layerTypes],
    local_attention: config.localAttention,
    rope_parameters: { full_attention: rope(config.globalRotary), sliding_attention: rope(config.localRotary) },
    norm_bias: config.normBias,
    attention_bias: config.attentionBias,
    mlp_bias: config.mlpBias,
    classifier_bias: config.classifierBias,
    decoder_bias: config.decoderBias,
    tie_word_embeddings: config.tieWordEmbeddings,
    classifier_pooling: config.classifierPooling,
    classifier_activation: config.classifierActivation,
    embedding_dropout: config.embeddingDropout,
  };
}

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
  const keys = config.modelType === 'distilbert' ? DISTILBERT : config.modelType === 'modernbert' ? MODERNBERT : STANDARD;
  const out: Record<string, unknown> = { architectures: [ARCHITECTURES[config.modelType]], ...original, model_type: config.modelType };
  for (const [field, key] of Object.entries(keys)) out[key] = config[field as keyof typeof keys];
  out['initializer_range'] = config.initializerRange;
  out['pad_token_id'] = config.padTokenId;
  if (config.modelType === 'modernbert') Object.assign(out, modernBertKeys(config as ModernBertConfig));
  else if (config.modelType !== 'distilbert') out['layer_norm_eps'] = config.layerNormEps;
  if (config.typeVocabSize > 0) out['type_vocab_size'] = config.typeVocabSize;
  if (config.modelType === 'electra' || config.modelType === 'roformer') out['embedding_size'] = config.embeddingSize;
  if (config.modelType === 'roformer') out['rotary_value'] = config.rotaryValue;
  else if (config.positionEmbeddingType !== 'absolute') out['position_embedding_type'] = config.positionEmbeddingType; // relative_key(_query)
  if (config.modelType === 'mpnet') out['relative_attention_num_buckets'] = config.relativeAttentionNumBuckets;
  delete out['torch_dtype']; // transformers ≥ 4.56 reads `dtype`
  out['dtype'] = 'float32';
  return out;
}
