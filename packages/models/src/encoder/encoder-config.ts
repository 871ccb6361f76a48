/** The Hugging Face `model_type`s of the encoder families attnkit builds, each from its own folder. */
export const MODEL_TYPES = ['bert', 'distilbert', 'roberta', 'xlm-roberta', 'electra', 'mpnet', 'roformer', 'modernbert'] as const;

/** One of {@link MODEL_TYPES}. */
export type ModelType = (typeof MODEL_TYPES)[number];

/**
 * How an encoder sees positions: `absolute` (a learned table added to the embeddings), `relative_key`
 * and `relative_key_query` (BERT, RoBERTa, XLM-R and ELECTRA folders with `position_embedding_type`
 * so: each layer's `distance_embedding` added to the attention scores, no absolute table), `rotary`
 * (RoFormer: sinusoidal rotary embeddings turning queries and keys).
 */
export const POSITION_EMBEDDING_TYPES = ['absolute', 'relative_key', 'relative_key_query', 'rotary'] as const;

/** One of {@link POSITION_EMBEDDING_TYPES}. */
export type PositionEmbeddingType = (typeof POSITION_EMBEDDING_TYPES)[number];

/**
 * What every encoder family's config gives (camelCase here), in BERT's words: `hiddenSize` is
 * DistilBERT's `dim`, and so on. Each family's config type (`BertConfig`, `RobertaConfig`, ...)
 * narrows `modelType`; its parser (`parseBertConfig`, ...) reads config.json once.
 */
export interface EncoderConfig {
  readonly modelType: ModelType;
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly numHiddenLayers: number;
  readonly numAttentionHeads: number;
  readonly intermediateSize: number;
  readonly maxPositionEmbeddings: number;
  /** Segment (token type) vocabulary; 0 for families without token types (DistilBERT, MPNet). */
  readonly typeVocabSize: number;
  readonly layerNormEps: number;
  readonly hiddenDropoutProb: number;
  readonly attentionProbsDropoutProb: number;
  readonly padTokenId: number;
  /** The feed-forward activation, a Hugging Face `hidden_act` name (`'gelu'`, `'gelu_new'`, `'relu'`, ...). */
  readonly hiddenAct: string;
  /** Std of the normal initialisation of a model built without weights (default 0.02). */
  readonly initializerRange: number;
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
  /**
   * How positions enter (config.json's `position_embedding_type` for the BERT-like families; `rotary`
   * for RoFormer). With a relative type the longest sequence is `maxPositionEmbeddings` (the distance
   * table's reach), whatever `positionOffset` says.
   */
  readonly positionEmbeddingType: PositionEmbeddingType;
  /** RoFormer's `rotary_value`: the values turn too; false for the other families. */
  readonly rotaryValue: boolean;
}
