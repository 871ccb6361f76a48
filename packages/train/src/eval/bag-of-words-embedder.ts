import { concat, div, expandDims, gather, maximum, mul, sum, tensor2d, tidy, zeros, type Tensor, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkOptionKeys, describeValue } from '@attnkit/errors';
import { SentenceEncoder } from '@attnkit/sentence';
import type { EmbedTexts } from './evaluate-wordnet-retrieval.js';

/** Options of {@link bagOfWordsEmbedder}. */
export interface BagOfWordsEmbedderOptions {
  /** Texts tokenized and averaged at once (default 64). */
  readonly batchSize?: number;
}

/** The checkpoint key of the word-embedding table in every encoder family (BERT, RoBERTa, DistilBERT, MPNet, ELECTRA). */
const WORD_EMBEDDINGS_KEY = 'embeddings.word_embeddings.weight';

/**
 * A baseline embedder that uses no attention: a text's embedding is the mean of the model's own
 * input word embeddings (the rows of its encoder's `embeddings.word_embeddings.weight` `[V, E]`)
 * for the token ids its tokenizer gives, over the real tokens only — padding and special tokens
 * (`[CLS]`, `[SEP]`, also `[UNK]`) left out; no position or type embeddings, no LayerNorm. Texts
 * are truncated to `model.maxSeqLength` as the model truncates them; a text with no real token
 * embeds as zeros. `N` texts → `[N, E]` (a tensor to dispose).
 *
 * @example
 * const baseline = bagOfWordsEmbedder(model);
 * await evaluateWordnetRetrieval(baseline, heldOut); // what the attention layers add, by difference
 */
export function bagOfWordsEmbedder(model: SentenceEncoder, options: BagOfWordsEmbedderOptions = {}): EmbedTexts {
  const caller = 'bagOfWordsEmbedder';
  if (!(model instanceof SentenceEncoder)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a SentenceEncoder (loadSentenceEncoder)', received: describeValue(model) });
  checkOptionKeys(options, ['batchSize'], caller);
  const batchSize = checkInteger(options.batchSize === undefined ? 64 : options.batchSize, { caller, argument: 'batchSize', min: 1 });
  const table = model.encoder.namedParameters().find(([key]) => key === WORD_EMBEDDINGS_KEY)?.[1];
  if (table === undefined || table.rank !== 2) throw new InvalidArgumentError({ caller, argument: 'model', expected: `an encoder with a word-embedding table '${WORD_EMBEDDINGS_KEY}' [V, E]`, received: `one without it (${model.encoder.namedParameters().length} parameters)` });
  const special = new Map<number, boolean>();
  const isSpecial = (id: number): boolean => {
    let known = special.get(id);
    if (known === undefined) {
      const token = model.tokenizer.idToToken(id);
      special.set(id, (known = token !== undefined && model.tokenizer.isSpecialToken(token)));
    }
    return known;
  };

  return async (texts: string[]): Promise<Tensor2D> => {
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a list of strings', received: describeValue(texts) });
    const width = table.shape[1] as number;
    if (texts.length === 0) return zeros([0, width]) as Tensor2D;
    const parts: Tensor[] = [];
    try {
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = model.tokenizer.encode(texts.slice(start, start + batchSize), { maxLength: model.maxSeqLength, truncation: true, padding: 'longest' });
        const weights = batch.inputIds.map((ids, b) => ids.map((id, t) => (batch.attentionMask[b]?.[t] === 1 && !isSpecial(id) ? 1 : 0)));
        parts.push(tidy(() => {
          const ids = tensor2d(batch.inputIds, undefined, 'int32'); // [B, T]
          const real = tensor2d(weights, undefined, 'float32'); // [B, T]: 1 for a real token
          const words = gather(table, ids); // [V, E] rows -> [B, T, E]
          const total = sum(mul(words, expandDims(real, 2)), 1); // [B, T, E] * [B, T, 1] -> [B, E]
          return div(total, maximum(sum(real, 1, true), 1)); // [B, E] / [B, 1]: the mean (zeros without real tokens)
        }));
        if (start + batchSize < texts.length) await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return tidy(() => (parts.length === 1 ? (parts[0] as Tensor).clone() : concat(parts, 0))) as Tensor2D;
    } finally {
      parts.forEach((t) => t.dispose());
    }
  };
}
