import { checkInteger, checkObject } from '@attnkit/errors';
import { describeSource, ModelFiles, ModelLoadError, type ModelSource } from '@attnkit/hub';
import type { TensorData } from '@attnkit/nn';
import { loadEncoderFolder, type LoadEncoderOptions } from '../load/load-encoder.js';
import { parseBertConfig } from './bert-config.js';
import { BertForMaskedLM, MASKED_LM_HEAD_KEYS } from './bert-for-masked-lm.js';
import { BertModel } from './bert-model.js';

/** Options of {@link loadBertForMaskedLM}. */
export interface LoadBertForMaskedLMOptions extends LoadEncoderOptions {
  /** Seed of the head's initialisation when the folder has no `cls.predictions.*` tensors. */
  readonly seed?: number;
}

/**
 * Loads a Hugging Face BERT folder as a {@link BertForMaskedLM}: the encoder as `loadBert` does, and
 * the masked-language-model head from the `cls.predictions.*` tensors (`BertForMaskedLM` and
 * `BertForPreTraining` checkpoints; `cls.seq_relationship.*`, the next-sentence head, is left out).
 * A folder without a head (a plain `BertModel` or sentence-transformers folder) gets a new head
 * initialised as transformers does, with a notice. A partial head, or a decoder weight that differs
 * from the word embeddings (an untied decoder, which BERT checkpoints do not have), is a
 * {@link ModelLoadError}.
 *
 * @example
 * const mlm = await loadBertForMaskedLM('./attnkit-tiny-bert', { seed: 1 });
 * const { logits } = mlm.forward(tokenizer.encode(['the cat sat on the [MASK].'])); // [1, T, V]
 */
export async function loadBertForMaskedLM(source: ModelSource | ModelFiles, options: LoadBertForMaskedLMOptions = {}): Promise<BertForMaskedLM> {
  const caller = 'loadBertForMaskedLM';
  const { seed: given, ...load } = checkObject(options, { caller, argument: 'options', expected: 'an options object { seed?, backend?, quantize?, ... }' });
  const seed = given === undefined ? undefined : checkInteger(given, { caller, argument: 'seed' });
  return loadEncoderFolder(source, load, {
    caller,
    modelTypes: ['bert'],
    parseConfig: (json) => parseBertConfig(json),
    usesHeads: true,
    encoderPath: 'bert.', // an int8 folder's Linear layers are the encoder's, under bert.
    build: (config, { checkpoint, heads }) => {
      const where = source instanceof ModelFiles ? source.where : describeSource(source);
      const fail = (message: string): never => {
        throw new ModelLoadError('model.safetensors', `model.safetensors in ${where} ${message}`, undefined, caller);
      };
      const stored = new Map([...heads].map(([name, value]) => [name.replace(/\.LayerNorm\.gamma$/, '.LayerNorm.weight').replace(/\.LayerNorm\.beta$/, '.LayerNorm.bias'), value] as const)); // TensorFlow-era names, as checkpointKeys renames the encoder
      const head = new Map<string, TensorData>();
      for (const key of MASKED_LM_HEAD_KEYS) {
        const value = stored.get(key) ?? (key === 'cls.predictions.bias' ? stored.get('cls.predictions.decoder.bias') : undefined); // older files name the bias after the decoder
        if (value !== undefined) head.set(key, value);
      }
      if (head.size > 0 && head.size < MASKED_LM_HEAD_KEYS.length) fail(`has part of a masked-language-model head: ${MASKED_LM_HEAD_KEYS.filter((k) => !head.has(k)).join(', ')} missing. Save the whole head, or none (a new one is then initialised).`);
      const decoder = stored.get('cls.predictions.decoder.weight');
      const words = checkpoint.get('embeddings.word_embeddings.weight');
      if (decoder !== undefined && words !== undefined && (decoder.values.length !== words.values.length || decoder.values.some((v, i) => v !== words.values[i]))) {
        fail('has a cls.predictions.decoder.weight that differs from the word embeddings (an untied decoder); BertForMaskedLM ties them, as BERT checkpoints do.');
      }
      const bert = new BertModel(config, checkpoint);
      try {
        const model = new BertForMaskedLM(bert, head.size === 0 ? undefined : head, seed === undefined ? {} : { seed });
        if (head.size === 0) options.onNotice?.(`${caller}: ${where} has no masked-language-model head (cls.predictions.*); a new one is initialised, as transformers does: its predictions mean nothing until trained.`);
        return model;
      } catch (error) {
        if (!bert.isDisposed) bert.dispose();
        throw error;
      }
    },
  });
}
