import type { ActivationFunction } from '@attnkit/nn';

/**
 * Configuration of `TransformerEncoderLayer`, in the vocabulary of `torch.nn.TransformerEncoderLayer`
 * (its defaults too, except the layout: attnkit is batch-first).
 */
export interface TransformerEncoderLayerConfig {
  /** E, the model width (PyTorch `d_model`). */
  readonly embedDim: number;
  /** H (PyTorch `nhead`); `embedDim` must be divisible by it. */
  readonly numHeads: number;
  /** The feed-forward width (PyTorch `dim_feedforward`, default 2048). */
  readonly feedForwardDim?: number;
  /** Dropout after attention, in the feed-forward block and on the attention weights, in training mode (default 0.1). */
  readonly dropout?: number;
  /** A Hugging Face `hidden_act` name or a function (default `'relu'`). */
  readonly activation?: string | ActivationFunction;
  /** LayerNorm eps (default 1e-5). */
  readonly layerNormEps?: number;
  /** Pre-LN (`true`: norm before attention and feed-forward) or post-LN (`false`, the default, as BERT). */
  readonly normFirst?: boolean;
  /** Seed of the initialisation of every parameter. */
  readonly seed?: number;
}
