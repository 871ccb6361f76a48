import type { Scorer } from '@attnkit/scorers';

/** Configuration of `MultiHeadAttention`, in the vocabulary of `torch.nn.MultiheadAttention` (the weights are its constructor's `checkpoint`). */
export interface MultiHeadAttentionConfig {
  /** E, the model width (query width and output width). */
  readonly embedDim: number;
  /** H; `embedDim` must be divisible by it. */
  readonly numHeads: number;
  /** Width of the key input (PyTorch `kdim`); default `embedDim`. */
  readonly keyDim?: number;
  /** Width of the value input (PyTorch `vdim`); default `embedDim`. */
  readonly valueDim?: number;
  /** Biases on the input and output projections (default true). */
  readonly bias?: boolean;
  /** Dropout rate on the attention weights while training (default 0). */
  readonly dropout?: number;
  /** How queries meet keys per head (default `scaledDotProductScorer`). */
  readonly scorer?: Scorer;
  /**
   * `'fused'`: one `in_proj_weight [3E, E]` (PyTorch when kdim = vdim = E; self-attention then
   * projects q, k, v in one matMul). `'separate'`: `q_proj_weight`, `k_proj_weight`,
   * `v_proj_weight`. Default: fused when `keyDim` and `valueDim` equal `embedDim`.
   */
  readonly projections?: 'fused' | 'separate';
  /** `'batch-first'` `[B, T, E]` (default) or `'seq-first'` `[T, B, E]` (labml's layout) (masks `[T, S, B]`). */
  readonly layout?: 'batch-first' | 'seq-first';
  /** Seed of the Glorot initialisation when no checkpoint is given. */
  readonly seed?: number;
}

/** A config with every default resolved and checked. */
export interface ResolvedAttentionConfig {
  readonly embedDim: number;
  readonly numHeads: number;
  readonly headDim: number;
  readonly keyDim: number;
  readonly valueDim: number;
  readonly bias: boolean;
  readonly dropout: number;
  readonly projections: 'fused' | 'separate';
  readonly layout: 'batch-first' | 'seq-first';
}
