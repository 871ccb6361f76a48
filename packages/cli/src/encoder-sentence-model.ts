import { InvalidArgumentError } from '@attnkit/errors';
import type { Encoder } from '@attnkit/models';
import { isDecoderModel, type SentenceEncoder } from '@attnkit/sentence';

/** A sentence model whose Transformer is an encoder. */
export type EncoderSentenceModel = SentenceEncoder & { readonly encoder: Encoder };

/**
 * `model` when its Transformer is an encoder; a decoder folder (Qwen3-Embedding, ...) is disposed
 * and refused with an `InvalidArgumentError`: `attnkit encode` writes an encoder's outputs
 * (`last_hidden_state`, `pooler_output`), while `attnkit embed` embeds with any folder.
 *
 * @example
 * const model = encoderSentenceModel(await loadSentenceEncoder(folder), 'attnkit encode');
 */
export function encoderSentenceModel(model: SentenceEncoder, caller: string): EncoderSentenceModel {
  if (!isDecoderModel(model.encoder)) return model as EncoderSentenceModel;
  const type = model.encoder.config.modelType;
  model.dispose();
  throw new InvalidArgumentError({
    caller,
    argument: '--model',
    expected: 'a folder whose Transformer is an encoder (BERT, MPNet, XLM-R, ...)',
    received: `a folder whose Transformer is a ${type} decoder`,
    hint: 'attnkit embed embeds texts with a decoder embedding model.',
  });
}
