import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { modelFiles } from '@attnkit/hub';
import { loadEncoder, type Encoder } from '@attnkit/models';
import { l2Normalize, loadSentenceEncoder, Pooling, readSentenceFolder } from '@attnkit/sentence';
import { encoderSentenceModel } from './encoder-sentence-model.js';

/** What `attnkit encode --input ids.json` runs: the encoder, then the folder's modules after it. */
export interface IdsEncoder {
  readonly encoder: Encoder;
  /** The folder's pooling, Dense and Normalize modules: `lastHiddenState [B, T, E]`, `attentionMask [B, T]` (0/1) → `[B, E']`. */
  sentenceEmbeddings(lastHiddenState: Tensor, attentionMask: Tensor): Tensor;
  dispose(): void;
}

/**
 * Loads what token ids need of a model folder, and no tokenizer: the encoder (`loadEncoder`) and the
 * modules the folder lists after it, so a folder of only `config.json` and `model.safetensors`
 * embeds ids. Its sentence embedding is what `SentenceEncoder.sentenceEmbeddings` gives: the
 * folder's Pooling (mean pooling for a plain Hugging Face folder), then its Normalize. A folder with
 * Dense modules, or a sentence-transformers folder without a Pooling, is loaded whole
 * (`loadSentenceEncoder`, tokenizer included): @attnkit/sentence loads Dense weights only so.
 *
 * @example
 * const model = await loadIdsEncoder('/models/my-bert'); // config.json + model.safetensors
 * const { lastHiddenState } = model.encoder.forward({ inputIds: [[101, 7592, 102]] });
 * const sentences = model.sentenceEmbeddings(lastHiddenState, tf.tensor2d([[1, 1, 1]], undefined, 'int32')); // [1, E]
 */
export async function loadIdsEncoder(model: string): Promise<IdsEncoder> {
  const files = modelFiles(model, { caller: 'attnkit encode' });
  const folder = await readSentenceFolder(files);
  if (folder.modules.some((m) => m.type === 'Dense') || (folder.pooling === undefined && !folder.plain)) return encoderSentenceModel(await loadSentenceEncoder(files), 'attnkit encode');
  const encoder = await loadEncoder(files.subfolder(folder.transformerPath));
  const pooling = new Pooling(folder.pooling ?? { embeddingDimension: encoder.config.hiddenSize, modes: ['mean'], includePrompt: true }); // a plain folder: mean pooling, as SentenceEncoder
  return {
    encoder,
    sentenceEmbeddings: (lastHiddenState, attentionMask) => tidy(() => folder.modules.reduce((x) => l2Normalize(x), pooling.forward(lastHiddenState, attentionMask))), // [B, E]; the modules left are Normalize
    dispose: () => encoder.dispose(),
  };
}
