import { serialization, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { initializers, layers, type LayerVariable } from '@tensorflow/tfjs-layers';
import { InvalidArgumentError } from '@attnkit/errors';
import { causalMask } from '@attnkit/masks';
import { attentionWeightShapes } from '../attention-weight-shapes.js';
import { multiHeadAttentionForward } from '../multi-head-attention-forward.js';
import type { MultiHeadAttentionConfig, ResolvedAttentionConfig } from '../multi-head-attention-config.js';
import { resolveAttentionConfig } from '../resolve-attention-config.js';

/**
 * Configuration of {@link MultiHeadAttentionLayer} (serialised with the model): the plain-data part
 * of `MultiHeadAttentionConfig` (no scorer objects or tensors), plus `causal`.
 */
export interface MultiHeadAttentionLayerArgs extends Pick<MultiHeadAttentionConfig, 'embedDim' | 'numHeads' | 'keyDim' | 'valueDim' | 'bias' | 'dropout' | 'seed'> {
  /** Apply a causal mask (queries aligned to the end of the keys). Default false. */
  readonly causal?: boolean;
  readonly name?: string;
  readonly trainable?: boolean;
}

type Shape = Array<number | null>;

/**
 * `MultiHeadAttention` as a `tf.layers.Layer`: it sits in a `tf.model`, trains with `fit()`, and
 * round-trips through `model.save()` / `tf.loadLayersModel()` (registered as
 * `'AttnkitMultiHeadAttention'`). Weights have PyTorch's names. Inputs: `query` for
 * self-attention, or `[query, value]` (key = value), or `[query, key, value]`.
 *
 * `query [B, T, E]`, `key [B, S, keyDim]`, `value [B, S, valueDim]` → `[B, T, E]`.
 *
 * @example
 * const input = tf.input({ shape: [16, 64] });
 * const output = new MultiHeadAttentionLayer({ embedDim: 64, numHeads: 8 }).apply(input) as tf.SymbolicTensor;
 * const model = tf.model({ inputs: input, outputs: output });
 */
export class MultiHeadAttentionLayer extends layers.Layer {
  static readonly className = 'AttnkitMultiHeadAttention';
  readonly args: MultiHeadAttentionLayerArgs;
  readonly attention: ResolvedAttentionConfig;
  #weights = new Map<string, LayerVariable>();

  constructor(args: MultiHeadAttentionLayerArgs) {
    super({ ...(args.name === undefined ? {} : { name: args.name }), ...(args.trainable === undefined ? {} : { trainable: args.trainable }) });
    this.args = args;
    this.attention = resolveAttentionConfig(args, 'MultiHeadAttentionLayer');
  }

  override build(inputShape: Shape | Shape[]): void {
    const shapes = Array.isArray(inputShape[0]) ? (inputShape as Shape[]) : [inputShape as Shape];
    if (shapes.length > 3 || shapes.length === 0) {
      throw new InvalidArgumentError({ caller: 'MultiHeadAttentionLayer', argument: 'inputs', expected: 'query, [query, value] or [query, key, value]', received: `${shapes.length} inputs` });
    }
    let seed = this.args.seed;
    for (const [name, shape] of Object.entries(attentionWeightShapes(this.attention))) {
      const initializer = name.endsWith('bias') ? initializers.zeros() : initializers.glorotUniform(seed === undefined ? {} : { seed: seed++ });
      this.#weights.set(name, this.addWeight(name, shape, 'float32', initializer));
    }
    this.built = true;
  }

  override computeOutputShape(inputShape: Shape | Shape[]): Shape {
    return Array.isArray(inputShape[0]) ? [...(inputShape[0] as Shape)] : [...(inputShape as Shape)];
  }

  override call(inputs: Tensor | Tensor[], kwargs: { training?: boolean }): Tensor {
    return tidy(() => {
      const list = Array.isArray(inputs) ? inputs : [inputs];
      const [query, key, value] = list.length === 1 ? [list[0], list[0], list[0]] : list.length === 2 ? [list[0], list[1], list[1]] : list;
      const weights = new Map([...this.#weights].map(([name, v]) => [name, v.read()]));
      const queryLength = query!.shape[1] as number;
      const keyLength = key!.shape[1] as number;
      const mask = this.args.causal === true ? causalMask(queryLength, keyLength) : undefined;
      return multiHeadAttentionForward('MultiHeadAttentionLayer.call', weights, this.attention, undefined, { query: query!, key: key!, value: value! }, {
        attentionMask: mask,
        training: kwargs.training === true,
      }).output;
    });
  }

  override getConfig(): serialization.ConfigDict {
    const { name: _name, trainable: _trainable, ...own } = this.args;
    return { ...super.getConfig(), ...(own as serialization.ConfigDict) };
  }
}

serialization.registerClass(MultiHeadAttentionLayer);
