import type { ModelFiles, ModelSource } from '@attnkit/hub';
import type { TensorData } from '@attnkit/nn';
import { loadEncoderFolder, type LoadEncoderOptions } from '../load/load-encoder.js';
import { parseModernBertConfig } from './modernbert-config.js';
import { ModernBertForMaskedLM } from './modernbert-for-masked-lm.js';

/**
 * Loads a ModernBERT masked-LM folder (`ModernBertForMaskedLM` as transformers 5.17 saves it:
 * `model.*`, `head.*`, `decoder.bias`, and `decoder.weight` without `tie_word_embeddings`) as a
 * {@link ModernBertForMaskedLM}, with `loadEncoder`'s sources and options. Every tensor loads
 * strictly: a folder without the head (a base model) or with part of it is a `ModelLoadError`
 * naming the missing keys.
 *
 * @example
 * const mlm = await loadModernBertForMaskedLM('./ModernBERT-base');
 * const { logits } = mlm.forward({ inputIds, attentionMask }); // [B, T, V]
 */
export function loadModernBertForMaskedLM(source: ModelSource | ModelFiles, options: LoadEncoderOptions = {}): Promise<ModernBertForMaskedLM> {
  return loadEncoderFolder(source, options, {
    caller: 'loadModernBertForMaskedLM',
    parseConfig: (json) => parseModernBertConfig(json, 'loadModernBertForMaskedLM'),
    modelTypes: ['modernbert'],
    usesHeads: true,
    encoderPath: 'model.',
    build: (config, { checkpoint, heads }) => {
      const state = new Map<string, TensorData>([...checkpoint].map(([key, value]) => [`model.${key}`, value] as const));
      for (const [name, value] of heads) state.set(name, value); // head.*, decoder.*; anything else is refused by the strict load
      return new ModernBertForMaskedLM(config, state);
    },
  });
}
