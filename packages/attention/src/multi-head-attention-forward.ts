import { mean, reshape, slice, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { assertBackendReady } from '@attnkit/backends';
import { checkBoolean, checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape, InvalidArgumentError } from '@attnkit/errors';
import { validateMask } from '@attnkit/masks';
import { linear } from '@attnkit/nn';
import { checkScorer, type Scorer } from '@attnkit/scorers';
import { mergeHeads } from './merge-heads.js';
import type { ResolvedAttentionConfig } from './multi-head-attention-config.js';
import { scaledDotProductAttention } from './scaled-dot-product-attention.js';
import { splitHeads } from './split-heads.js';
import { checkAttentionBias } from './check-attention-bias.js';

/** Options of a multi-head attention call. */
export interface AttentionCallOptions {
  /** Bool, `true` = may attend, broadcastable to `[B, H, T, S]` (seq-first layout: `[T, S, B]`). */
  readonly attentionMask?: Tensor | undefined;
  /**
   * Float32 added to the scores: `[T, S]` or rank 4 broadcastable to `[B, H, T, S]` (ALiBi, relative
   * positions, PyTorch float masks). Scores are `[B, H, T, S]` in either layout, so is the bias.
   */
  readonly attentionBias?: Tensor | undefined;
  /** `'none'` (default), `'per-head'` `[B, H, T, S]`, or `'averaged'` over heads `[B, T, S]`. */
  readonly returnWeights?: 'none' | 'per-head' | 'averaged';
  /** Apply dropout (if configured). Default false. */
  readonly training?: boolean;
  /** Seed of the dropout mask. */
  readonly seed?: number;
}

/** The keys of {@link AttentionCallOptions}: any other key (a mask passed as `mask`) is refused, never ignored. */
export const ATTENTION_CALL_OPTION_KEYS: readonly string[] = ['attentionMask', 'attentionBias', 'returnWeights', 'training', 'seed'];

/** What a multi-head attention call returns. */
export interface MultiHeadAttentionResult {
  /** `[B, T, E]` (seq-first: `[T, B, E]`). */
  readonly output: Tensor;
  /** Present when asked for: `[B, H, T, S]` per head, or `[B, T, S]` averaged. */
  readonly attentionWeights?: Tensor;
}

function checkInputs(caller: string, config: ResolvedAttentionConfig, query: Tensor, key: Tensor, value: Tensor): void {
  const layout = config.layout === 'seq-first' ? ['T', 'B'] : ['B', 'T'];
  const [first, second] = layout;
  checkTensor(query, { caller, argument: 'query', dtype: 'float32', rank: 3, shape: `[${first}, ${second}, E]` });
  checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 3, shape: `[${first === 'B' ? 'B, S' : 'S, B'}, keyDim]` });
  checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 3, shape: `[${first === 'B' ? 'B, S' : 'S, B'}, valueDim]` });
  const batchAxis = config.layout === 'seq-first' ? 1 : 0;
  const lengthAxis = 1 - batchAxis;
  const widths: Array<[string, Tensor, number, string]> = [['query', query, config.embedDim, 'embedDim'], ['key', key, config.keyDim, 'keyDim'], ['value', value, config.valueDim, 'valueDim']];
  for (const [argument, x, width, name] of widths) {
    if (x.shape[2] !== width) throw new InvalidArgumentError({ caller, argument, expected: `a last dim of ${name} = ${width}`, received: formatShape(x.shape) });
  }
  for (const [argument, x] of [['key', key], ['value', value]] as const) {
    if (x.shape[batchAxis] !== query.shape[batchAxis]) {
      throw new InvalidArgumentError({ caller, argument, expected: `the batch size of 'query' (${query.shape[batchAxis]}) on axis ${batchAxis}`, received: formatShape(x.shape) });
    }
  }
  if (key.shape[lengthAxis] !== value.shape[lengthAxis]) {
    throw new InvalidArgumentError({
      caller,
      argument: 'value',
      expected: `as many positions as 'key' (S = ${key.shape[lengthAxis]}): each key needs its value`,
      received: formatShape(value.shape),
    });
  }
}

/** Splits a fused `[3E, E]` weight (or `[3E]` bias) into its query, key and value parts. */
function part(weight: Tensor | undefined, index: number, width: number): Tensor | undefined {
  if (weight === undefined) return undefined;
  return weight.rank === 1 ? slice(weight, [index * width], [width]) : slice(weight, [index * width, 0], [width, weight.shape[1] as number]);
}

/**
 * The multi-head attention computation, on weights named as in `torch.nn.MultiheadAttention`.
 * Shared by `MultiHeadAttention` and the tf.layers adapter.
 *
 * `query [B, T, E]`, `key [B, S, keyDim]`, `value [B, S, valueDim]` → `output [B, T, E]`.
 */
export function multiHeadAttentionForward(
  caller: string,
  weights: ReadonlyMap<string, Tensor>,
  config: ResolvedAttentionConfig,
  scorer: Scorer | undefined,
  inputs: { query: Tensor; key: Tensor; value: Tensor },
  options: AttentionCallOptions = {},
): MultiHeadAttentionResult {
  assertBackendReady(caller);
  if (!(weights instanceof Map)) throw new InvalidArgumentError({ caller: typeof caller === 'string' ? caller : 'multiHeadAttentionForward', argument: 'weights', expected: 'a Map of name → tensor', received: describeValue(weights) });
  checkObject(config, { caller, argument: 'config', expected: 'a resolved attention config' });
  const { query, key, value } = checkObject(inputs, { caller, argument: 'inputs', expected: 'an object { query, key, value }' });
  checkOptionKeys(options, ATTENTION_CALL_OPTION_KEYS, caller);
  if (scorer !== undefined) checkScorer(scorer, caller, 'scorer'); // before any projection, named for this caller
  checkInputs(caller, config, query, key, value);
  const returnWeights = options.returnWeights === undefined ? 'none' : options.returnWeights;
  if (!['none', 'per-head', 'averaged'].includes(returnWeights)) {
    throw new InvalidArgumentError({ caller, argument: 'returnWeights', expected: "'none', 'per-head' or 'averaged'", received: typeof returnWeights === 'string' ? returnWeights : describeValue(returnWeights) });
  }
  const training = checkBoolean(options.training, { caller, argument: 'training', fallback: false });
  if (options.seed !== undefined) checkInteger(options.seed, { caller, argument: 'seed' });
  const seqFirst = config.layout === 'seq-first';
  const [batch, queryLength] = seqFirst ? [query.shape[1] as number, query.shape[0] as number] : [query.shape[0] as number, query.shape[1] as number];
  const keyLength = key.shape[seqFirst ? 0 : 1] as number;
  const { embedDim: e, numHeads: h, headDim: d } = config;
  const scoreBias = options.attentionBias === undefined ? undefined : checkAttentionBias(options.attentionBias, { batch, heads: h, queryLength, keyLength }, caller, 'attentionBias');
  let mask: Tensor | undefined;
  try {
    mask = options.attentionMask === undefined ? undefined : validateMask(options.attentionMask, { batch, heads: h, queryLength, keyLength, layout: config.layout, caller, argument: 'attentionMask' });
  } catch (error) {
    if (scoreBias !== options.attentionBias) scoreBias?.dispose();
    throw error;
  }
  try {
    return tidy(() => {
      const toBatchFirst = (x: Tensor): Tensor => (seqFirst ? transpose(x, [1, 0, 2]) : x); // [T, B, E] -> [B, T, E]
      const bias = weights.get('in_proj_bias');
      let heads: Tensor[];
      if (config.projections === 'fused' && query === key && key === value) {
        // self-attention: q, k and v in one matMul, then one 4-D transpose puts every head of all three
        // in the head layout at once (tfjs-wasm's 5-D transpose is ~75x slower than a 4-D one)
        const qkv = linear(toBatchFirst(query), weights.get('in_proj_weight') as Tensor, bias); // [B, T, 3E]
        const grouped = transpose(reshape(qkv, [batch, queryLength, 3 * h, d]), [0, 2, 1, 3]); // [B, T, 3H, D] -> [B, 3H, T, D]
        heads = [0, 1, 2].map((i) => slice(grouped, [0, i * h, 0, 0], [batch, h, queryLength, d])); // -> 3 x [B, H, T, D]
      } else {
        const fused = weights.get('in_proj_weight');
        const projection = (x: Tensor, index: number, name: string): Tensor =>
          splitHeads(linear(toBatchFirst(x), fused === undefined ? (weights.get(name) as Tensor) : (part(fused, index, e) as Tensor), part(bias, index, e)), h); // [B, *, E] -> [B, H, *, D]
        heads = [projection(query, 0, 'q_proj_weight'), projection(key, 1, 'k_proj_weight'), projection(value, 2, 'v_proj_weight')];
      }
      const [q, k, v] = heads as [Tensor, Tensor, Tensor];
      const attended = scaledDotProductAttention(q, k, v, {
        mask,
        bias: scoreBias,
        ...(scorer === undefined ? {} : { scorer }),
        dropout: config.dropout,
        training,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      });
      const merged = linear(mergeHeads(attended.output), weights.get('out_proj.weight') as Tensor, weights.get('out_proj.bias')); // [B, T, E]
      const output = seqFirst ? transpose(merged, [1, 0, 2]) : merged; // -> [T, B, E] when seq-first
      if (returnWeights === 'none') return { output };
      return { output, attentionWeights: returnWeights === 'averaged' ? mean(attended.attentionWeights, 1) : attended.attentionWeights }; // [B, T, S] or [B, H, T, S]
    });
  } finally {
    mask?.dispose();
    if (scoreBias !== options.attentionBias) scoreBias?.dispose();
  }
}
