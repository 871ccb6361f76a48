import type { BertModel } from './bert-model.js';
import { loadEncoderAs, type LoadEncoderOptions } from './load-encoder.js';
import type { ModelSource } from './model-files.js';

/** Options of {@link loadBert}. */
export type LoadBertOptions = LoadEncoderOptions;

/**
 * Loads a Hugging Face BERT folder (`model_type` `"bert"`) — `config.json` and `model.safetensors`
 * (F32, F16 or BF16) — from a local folder (Node), a URL, or a set of files (browser uploads), as
 * a {@link BertModel}. Names with or without the `bert.` prefix and legacy `LayerNorm.gamma` /
 * `LayerNorm.beta` names are accepted (see `checkpointKeys`); heads (`cls.*`, `classifier.*`) are
 * skipped with a notice; missing, unexpected or mis-shaped tensors give one `ModelLoadError`
 * listing all of them, and two tensors for one weight are an error. Other families: `loadEncoder`.
 *
 * @example
 * const model = await loadBert('./models/attnkit-tiny-bert', { onProgress: (p) => console.log(p) });
 */
export async function loadBert(source: ModelSource, options: LoadBertOptions = {}): Promise<BertModel> {
  return (await loadEncoderAs(source, options, 'loadBert', ['bert'])) as BertModel;
}
