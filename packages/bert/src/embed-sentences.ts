import { concat, gather, tensor1d, tensor2d, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger } from '@attnkit/errors';
import type { BertModel } from './bert-model.js';
import type { BertTokenizer } from './bert-tokenizer.js';
import { clsPooling, l2Normalize, meanPooling } from './sentence-embedding.js';

export interface EmbedSentencesOptions {
  /** Sequences per forward pass. Default 32. */
  readonly batchSize?: number;
  /** `'mean'` (default): mask-aware mean of the token vectors; `'cls'`: the `[CLS]` vector. */
  readonly pooling?: 'mean' | 'cls';
  /** Scale every embedding to unit length. Default false. */
  readonly normalize?: boolean;
  /** Truncate longer sequences to this many tokens. Default: the tokenizer's `modelMaxLength`. */
  readonly maxLength?: number;
  /** Called after each batch with the number of texts embedded so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Sentence embeddings for many texts (or `[first, second]` pairs), in input order, with length
 * bucketing: the texts are sorted by token count and run `batchSize` at a time, each batch padded
 * only to its own longest sequence, so short texts do not pay for the longest one (as
 * sentence-transformers' `encode` does). Yields to the event loop between batches.
 * `texts: N` → `[N, E]` (`[0, E]` for no texts).
 *
 * @example
 * const embeddings = await embedSentences(model, tokenizer, ['A cat.', 'A much longer sentence about dogs.'], { normalize: true });
 * cosineSimilarity(embeddings, embeddings).print(); // [2, 2]
 */
export async function embedSentences(model: BertModel, tokenizer: BertTokenizer, texts: ReadonlyArray<string | readonly [string, string]>, options: EmbedSentencesOptions = {}): Promise<Tensor> {
  const caller = 'embedSentences';
  const batchSize = checkInteger(options.batchSize ?? 32, { caller, argument: 'batchSize', min: 1 });
  const pooling = options.pooling ?? 'mean';
  if (pooling !== 'mean' && pooling !== 'cls') throw new InvalidArgumentError({ caller, argument: 'pooling', expected: "'mean' or 'cls'", received: JSON.stringify(pooling) });
  if (!Array.isArray(texts)) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a list of strings or [string, string] pairs', received: typeof texts });
  if (texts.length === 0) return zeros([0, model.config.hiddenSize]);
  // one tokenisation for all (typed errors for bad entries come from the tokenizer), padded to the longest
  const encoded = tokenizer.encode(texts, { padding: 'longest', ...(options.maxLength === undefined ? {} : { maxLength: options.maxLength }) });
  const lengths = encoded.attentionMask.map((row) => row.reduce((n, v) => n + v, 0));
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]! || a - b); // longest first, stable
  const pieces: Tensor[] = [];
  try {
    for (let start = 0; start < order.length; start += batchSize) {
      const rows = order.slice(start, start + batchSize);
      const width = lengths[rows[0]!]!; // the longest of this batch
      const take = (table: number[][]): number[][] => rows.map((r) => table[r]!.slice(0, width)); // [b, width]: only padding is cut
      const attentionMask = take(encoded.attentionMask);
      const out = model.forward({ inputIds: take(encoded.inputIds), attentionMask, tokenTypeIds: take(encoded.tokenTypeIds) });
      pieces.push(
        tidy(() => {
          const pooled = pooling === 'cls' ? clsPooling(out.lastHiddenState) : meanPooling(out.lastHiddenState, tensor2d(attentionMask, undefined, 'int32')); // [b, E]
          return options.normalize === true ? l2Normalize(pooled) : pooled;
        }),
      );
      out.lastHiddenState.dispose();
      out.poolerOutput.dispose();
      options.onProgress?.(Math.min(start + batchSize, order.length), order.length);
      if (start + batchSize < order.length) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return tidy(() => {
      const sorted = concat(pieces, 0); // [N, E] in length order
      const back = new Int32Array(order.length);
      order.forEach((row, position) => (back[row] = position));
      return gather(sorted, tensor1d(back, 'int32')); // [N, E] in input order
    });
  } finally {
    pieces.forEach((t) => t.dispose());
  }
}

