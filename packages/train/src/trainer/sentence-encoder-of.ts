import { InvalidArgumentError } from '@attnkit/errors';
import type { Encoder } from '@attnkit/models';
import { isDecoderModel, type SentenceEncoder } from '@attnkit/sentence';

/**
 * The encoder of a sentence model that training or saving needs: a folder whose Transformer is a
 * decoder (Qwen3-Embedding, gte-Qwen2: `isDecoderModel`) is refused with an `InvalidArgumentError`,
 * since attnkit trains and saves encoder sentence models only.
 *
 * @example
 * const encoder = sentenceEncoderOf(model, 'trainSentenceEncoder', 'train'); // Encoder
 */
export function sentenceEncoderOf(model: SentenceEncoder, caller: string, action: 'train' | 'save'): Encoder {
  const encoder = model.encoder;
  if (!isDecoderModel(encoder)) return encoder;
  throw new InvalidArgumentError({
    caller,
    argument: 'model',
    expected: `a sentence model whose Transformer is an encoder (BERT, MPNet, XLM-R, ...): attnkit does not ${action} decoder embedding models yet`,
    received: `one whose Transformer is a ${encoder.config.modelType} decoder`,
  });
}
