import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkInteger, checkObject, checkOptionKeys } from '@attnkit/errors';
import { Module } from '../module/module.js';
import { activationByName, type ActivationFunction } from '../ops/activation-by-name.js';
import { Dropout } from './dropout.js';
import { Linear } from './linear.js';

/** Configuration of {@link FeedForward}. */
export interface FeedForwardConfig {
  /** E, the input and output width. */
  readonly embedDim: number;
  /** The hidden width (PyTorch `dim_feedforward`, Hugging Face `intermediate_size`), as `TransformerEncoderLayer` names it. */
  readonly feedForwardDim: number;
  /** A Hugging Face `hidden_act` name or a function (default `'gelu'`, exact). */
  readonly activation?: string | ActivationFunction;
  /** Dropout after the activation, in training mode (default 0). */
  readonly dropout?: number;
  /** Seed of the initialisation (linear1: `seed`, linear2: `seed + 2`). */
  readonly seed?: number;
}

/**
 * The position-wise feed-forward block: `linear2(dropout(act(linear1(x))))`, parameters named as in
 * PyTorch's `TransformerEncoderLayer` (`linear1.*`, `linear2.*`).
 *
 * `x [..., E]` → `[..., E]`.
 *
 * @example
 * const ffn = new FeedForward({ embedDim: 384, feedForwardDim: 1536, activation: 'gelu' });
 * const y = ffn.forward(x); // [B, T, 384]
 */
export class FeedForward extends Module {
  readonly linear1: Linear;
  readonly dropout: Dropout;
  readonly linear2: Linear;
  readonly activation: ActivationFunction;

  constructor(config: FeedForwardConfig) {
    super();
    const caller = 'FeedForward';
    checkObject(config, { caller, argument: 'config', expected: 'a FeedForwardConfig object ({ embedDim, feedForwardDim, ... })' });
    checkOptionKeys(config, ['embedDim', 'feedForwardDim', 'activation', 'dropout', 'seed'], caller, 'config');
    const embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
    const feedForwardDim = checkInteger(config.feedForwardDim, { caller, argument: 'feedForwardDim', min: 1 });
    this.activation = activationByName(config.activation === undefined ? 'gelu' : config.activation, caller);
    const seed = config.seed === undefined ? undefined : checkInteger(config.seed, { caller, argument: 'seed' });
    [this.linear1, this.dropout, this.linear2] = this.guard(() => [
      this.registerModule('linear1', new Linear(embedDim, feedForwardDim, seed === undefined ? {} : { seed })),
      this.registerModule('dropout', new Dropout(config.dropout === undefined ? 0 : config.dropout)),
      this.registerModule('linear2', new Linear(feedForwardDim, embedDim, seed === undefined ? {} : { seed: seed + 2 })),
    ] as const);
  }

  /** `x [..., E]` → `[..., E]`. */
  forward(x: Tensor): Tensor {
    this.assertLive('FeedForward.forward');
    return tidy(() => this.linear2.forward(this.dropout.forward(this.activation(this.linear1.forward(x))))); // [..., E] -> [..., hidden] -> [..., E]
  }
}
