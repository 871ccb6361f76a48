import { cast, oneHot, reshape, tidy, where, zerosLike, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkBoolean, checkInteger, checkOptionKeys, checkTensor } from '@attnkit/errors';
import { Module } from '../module/module.js';
import { embeddingLookup } from '../ops/embedding-lookup.js';
import { initialValues } from './init.js';

/** Options of {@link Embedding}. */
export interface EmbeddingOptions {
  /** The row of this id starts at zero and receives no gradient (PyTorch `padding_idx`). */
  readonly paddingIdx?: number;
  /** Seed of the `N(0, 1)` initialisation. */
  readonly seed?: number;
}

/**
 * `nn.Embedding(N, E)`: a lookup table `weight [N, E]` (initialised `N(0, 1)`, as PyTorch). Ids are
 * checked to lie in `[0, N)` (a data read of the ids) — an id out of range is an error, never a
 * silent zero or garbage row.
 *
 * `ids` int32 `[...]` → `[..., E]`.
 *
 * @example
 * const words = new Embedding(30522, 384, { paddingIdx: 0 });
 * const x = words.forward(inputIds); // [B, T] -> [B, T, 384]
 */
export class Embedding extends Module {
  readonly numEmbeddings: number;
  readonly embeddingDim: number;
  readonly paddingIdx: number | undefined;
  readonly weight: Variable;

  constructor(numEmbeddings: number, embeddingDim: number, options: EmbeddingOptions = {}) {
    super();
    const caller = 'Embedding';
    this.numEmbeddings = checkInteger(numEmbeddings, { caller, argument: 'numEmbeddings', min: 1 });
    this.embeddingDim = checkInteger(embeddingDim, { caller, argument: 'embeddingDim', min: 1 });
    checkOptionKeys(options, ['paddingIdx', 'seed'], caller);
    this.paddingIdx = options.paddingIdx === undefined ? undefined : checkInteger(options.paddingIdx, { caller, argument: 'paddingIdx', min: 0, max: numEmbeddings - 1 });
    const padding = this.paddingIdx;
    this.weight = this.registerParameter('weight', tidy(() => {
      const initial = initialValues([numEmbeddings, embeddingDim], { normal: 1 }, options.seed, 'Embedding');
      return padding === undefined ? initial : where(cast(reshape(oneHot([padding], numEmbeddings), [-1, 1]), 'bool'), zerosLike(initial), initial); // row `padding` = +0
    }));
  }

  /**
   * `ids` int32 `[...]` → `[..., E]`. The ids are read back and checked to lie in `[0, N)`; a caller
   * that has already checked them (as `BertModel.forward` does) passes `{ idsChecked: true }` to skip
   * that read.
   */
  forward(ids: Tensor, options: { readonly idsChecked?: boolean } = {}): Tensor {
    const caller = 'Embedding.forward';
    this.assertLive(caller);
    const idsChecked = checkBoolean(checkOptionKeys(options, ['idsChecked'], caller).idsChecked, { caller, argument: 'idsChecked', fallback: false });
    checkTensor(ids, { caller, argument: 'ids', dtype: 'int32', shape: '[...] of ids' });
    const values = idsChecked ? [] : ids.dataSync();
    for (let i = 0; i < values.length; i++) {
      const id = values[i] as number;
      if (id < 0 || id >= this.numEmbeddings) {
        throw new InvalidArgumentError({ caller, argument: 'ids', expected: `ids in [0, numEmbeddings = ${this.numEmbeddings})`, received: `${id} at flat index ${i}` });
      }
    }
    return tidy(() => embeddingLookup(this.weight, ids, this.paddingIdx)); // [...] -> [..., E]
  }
}
