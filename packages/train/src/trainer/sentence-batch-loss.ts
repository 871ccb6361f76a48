import { tensor2d, tidy, type Scalar, type Tensor2D } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { SentenceEncoder } from '@attnkit/sentence';
import { cosineSimilarityLoss } from '../losses/cosine-similarity-loss.js';
import { sentenceEncoderOf } from './sentence-encoder-of.js';
import { multipleNegativesRankingLoss } from '../losses/multiple-negatives-ranking-loss.js';
import { SENTENCE_LOSSES, type SentenceLoss } from './training-pairs.js';

/** One batch for {@link sentenceBatchLoss}: the texts column by column, and the labels of the cosine loss. */
export interface SentenceBatch {
  /** `columns[c][b]`: text `c` of example `b` (anchor, positive, negative; or a, b). */
  readonly columns: ReadonlyArray<readonly string[]>;
  readonly labels: readonly number[];
}

/**
 * The loss of one batch through the whole model, differentiable (call it inside `variableGrads`):
 * each column tokenized (padded to its longest text, truncated to `maxSeqLength`) and embedded
 * as `model.encode` does — encoder, pooling, Dense, Normalize — in its own forward pass, as
 * sentence-transformers embeds each column; then the ranking loss (anchors against positives and
 * hard negatives) or the cosine loss against the labels.
 *
 * `columns`: k lists of B texts → scalar.
 *
 * @example
 * const { value, grads } = variableGrads(() => sentenceBatchLoss(model, batch, { loss: 'multiple-negatives-ranking', scale: 20, maxSeqLength: 128 }));
 */
export function sentenceBatchLoss(model: SentenceEncoder, batch: SentenceBatch, options: { readonly loss: SentenceLoss; readonly scale: number; readonly maxSeqLength: number }): Scalar {
  if (!(model instanceof SentenceEncoder)) throw new InvalidArgumentError({ caller: 'sentenceBatchLoss', argument: 'model', expected: 'a SentenceEncoder (loadSentenceEncoder)', received: describeValue(model) });
  checkObject(batch, { caller: 'sentenceBatchLoss', argument: 'batch', expected: 'a batch { columns, labels }' });
  checkObject(options, { caller: 'sentenceBatchLoss', argument: 'options', expected: 'an object { loss, scale, maxSeqLength }' });
  checkBatch(batch, options);
  const encoder = sentenceEncoderOf(model, 'sentenceBatchLoss', 'train');
  return tidy(() => {
    const embeddings = batch.columns.map((texts) => {
      const encoded = model.tokenizer.encode(texts, { maxLength: options.maxSeqLength, truncation: true, padding: 'longest' });
      const { lastHiddenState, poolerOutput } = encoder.forward({ inputIds: encoded.inputIds, attentionMask: encoded.attentionMask, tokenTypeIds: encoded.tokenTypeIds }); // [B, T, E]
      poolerOutput?.dispose();
      return model.sentenceEmbeddings(lastHiddenState, tensor2d(encoded.attentionMask, undefined, 'int32')) as Tensor2D; // [B, E']
    });
    const [first, second, ...negatives] = embeddings as [Tensor2D, Tensor2D, ...Tensor2D[]];
    return options.loss === 'multiple-negatives-ranking'
      ? multipleNegativesRankingLoss(first, second, { scale: options.scale, hardNegatives: negatives })
      : cosineSimilarityLoss(first, second, batch.labels);
  });
}

/** The batch's columns (at least two lists of strings, one text per example each) and labels, and the loss, its scale and maxSeqLength, or an `InvalidArgumentError` naming the field. */
function checkBatch(batch: SentenceBatch, options: { readonly loss: SentenceLoss; readonly scale: number; readonly maxSeqLength: number }): void {
  const caller = 'sentenceBatchLoss';
  const fail = (argument: string, expected: string, value: unknown): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received: describeValue(value) });
  };
  if (!(SENTENCE_LOSSES as readonly unknown[]).includes(options.loss)) fail('loss', SENTENCE_LOSSES.map((l) => `'${l}'`).join(' or '), options.loss);
  if (typeof options.scale !== 'number' || !(options.scale > 0 && Number.isFinite(options.scale))) fail('scale', 'a finite number > 0', options.scale);
  checkInteger(options.maxSeqLength, { caller, argument: 'maxSeqLength', min: 2 });
  const { columns, labels } = batch;
  if (!Array.isArray(columns) || columns.length < 2) fail('batch.columns', 'at least two columns of texts (anchor and positive, or a and b)', columns);
  const size = Array.isArray(columns[0]) ? (columns[0] as unknown[]).length : 0;
  Array.from(columns as unknown[]).forEach((column, c) => {
    if (!Array.isArray(column) || column.length !== size || size === 0 || !Array.from(column as unknown[]).every((t) => typeof t === 'string')) fail(`batch.columns[${c}]`, `a list of ${size > 0 ? size : 'one or more'} texts (strings), as long as the first column`, column);
  });
  const cosine = options.loss === 'cosine-similarity';
  if (!Array.isArray(labels) || (cosine && labels.length !== size) || !Array.from(labels as unknown[]).every((l) => typeof l === 'number' && Number.isFinite(l))) fail('batch.labels', cosine ? `${size} finite labels, one per example` : 'a list of finite numbers (empty for the ranking loss)', labels);
}
