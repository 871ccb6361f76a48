import type { ModelFiles, ModelSource } from '@attnkit/hub';
import { loadEncoderFolder, type LoadEncoderOptions } from '../load/load-encoder.js';
import { parseBertConfig } from './bert-config.js';
import { BertModel } from './bert-model.js';

/** Options of {@link loadBert}. */
export type LoadBertOptions = LoadEncoderOptions;

/**
 * Loads a Hugging Face BERT folder (`model_type` `"bert"`) — `config.json` and `model.safetensors`
 * (F32, F16 or BF16, or shards) — from a local folder (Node), a URL, a set of files (browser
 * uploads) or a `ModelFiles` reader, as a {@link BertModel}. Names with or without the `bert.`
 * prefix and legacy `LayerNorm.gamma` / `LayerNorm.beta` names are accepted (see `checkpointKeys`);
 * heads (`cls.*`, `classifier.*`) are skipped with a notice; missing, unexpected or mis-shaped
 * tensors give one `ModelLoadError` listing all of them, and two tensors for one weight are an
 * error. Other families: `loadEncoder`.
 *
 * @example
 * const model = await loadBert('./models/attnkit-tiny-bert', { onProgress: (p) => console.log(p) });
 */
export function loadBert(source: ModelSource | ModelFiles, options: LoadBertOptions = {}): Promise<BertModel> {
  return loadEncoderFolder(source, options, {
    caller: 'loadBert',
    modelTypes: ['bert'],
    parseConfig: (json) => parseBertConfig(json),
    build: (config, { checkpoint }) => new BertModel(config, checkpoint),
  });
}
