import { DECODER_MODEL_TYPES, type DecoderModel, type Encoder } from '@attnkit/models';

/**
 * The Transformer module of a sentence-transformers folder: an encoder (`loadEncoder`: BERT, MPNet,
 * XLM-R, ...) or the headless model of a decoder (`loadDecoder`: Qwen3, Qwen2, Llama, Mistral, GPT-2),
 * both `inputs → { lastHiddenState [B, T, E] }`.
 */
export type SentenceTransformerModel = Encoder | DecoderModel;

/**
 * Whether the Transformer module is a decoder (its `config.modelType` is one of `DECODER_MODEL_TYPES`);
 * false for anything else.
 *
 * @example
 * if (isDecoderModel(model.encoder)) console.log(model.encoder.config.numKeyValueHeads);
 */
export function isDecoderModel(model: SentenceTransformerModel): model is DecoderModel {
  const modelType = typeof model === 'object' && model !== null ? (model as { config?: { modelType?: unknown } }).config?.modelType : undefined;
  return (DECODER_MODEL_TYPES as readonly unknown[]).includes(modelType);
}
