import { engine, reshape, split, tidy, transpose, type Tensor } from '@tensorflow/tfjs-core';
import { ROTARY_KERNEL, checkResidual, kernelRoute } from '@attnkit/kernels';
import { InvalidArgumentError, checkBoolean, checkInteger, checkObject, checkOptionKeys, describeValue, formatShape } from '@attnkit/errors';
import { Linear, Module, RMSNorm, checkInputNormModule, checkWidth, int8InputNorm, int8QkvFusable, int8QkvProjection, type InputNormModule, type Int8Linear, type StateDictSource } from '@attnkit/nn';
import { applyRotary, checkRotaryCosSin } from './apply-rotary.js';
import { cachedAttentionOutput } from './cached-attention-output.js';
import { groupedQueryAttention } from './grouped-query-attention.js';
import { groupedQueryAttentionOutput } from './grouped-query-attention-output.js';
import { KvCache } from './kv-cache.js';
import type { RotaryCosSin } from './rotary-cos-sin.js';
import { mergeHeads } from './merge-heads.js';
import { splitHeads } from './split-heads.js';

/** Configuration of {@link DecoderAttention} (Hugging Face's names in brackets). */
export interface DecoderAttentionConfig {
  /** E (`hidden_size`). */
  readonly embedDim: number;
  /** H (`num_attention_heads`). */
  readonly numHeads: number;
  /** Hkv (`num_key_value_heads`), dividing H: H = grouped-query attention's groups of one; 1 = multi-query. Default H. */
  readonly numKeyValueHeads?: number;
  /** D (`head_dim`), default E / H (Qwen3 and Gemma set their own). */
  readonly headDim?: number;
  /** Biases on q_proj, k_proj and v_proj (`attention_bias`; Qwen2: true). Default false. */
  readonly bias?: boolean;
  /** A bias on o_proj (default: as `bias`, as Llama's `attention_bias`; Qwen2 has none). */
  readonly outputBias?: boolean;
  /** Qwen3's per-head RMSNorm of queries and keys over D before rotary (`q_norm`, `k_norm`). Default false. */
  readonly queryKeyNorm?: boolean;
  /** The eps of q_norm and k_norm (`rms_norm_eps`, default 1e-6). */
  readonly rmsNormEps?: number;
  /** Dropout on the attention weights in training mode (`attention_dropout`, default 0). */
  readonly dropout?: number;
  /** This layer's index in a `KvCache` (`layer_idx`, default 0). */
  readonly layerIndex?: number;
  /** Seed of the initialisation when no checkpoint is given. */
  readonly seed?: number;
}

/** Options of {@link DecoderAttention.forward}. */
export interface DecoderAttentionCallOptions {
  /** The rotary `cos` and `sin` `[B, T, R]` of the model's `RotaryEmbedding` (transformers' `position_embeddings`); absent: no rotary. */
  readonly positionEmbeddings?: RotaryCosSin | undefined;
  /** Bool, true = may attend, broadcastable to `[B, H, T, S]`: `decoderMask(...)` or a `KvCache` step's `attentionMask`. */
  readonly attentionMask?: Tensor | undefined;
  /** Float32 added to the scores, `[T, S]` or broadcastable to `[B, H, T, S]`. */
  readonly attentionBias?: Tensor | undefined;
  /** Append this step's keys and values to the cache (layer `layerIndex`) and attend over all of them. */
  readonly cache?: KvCache | undefined;
  /** Also return the attention weights `[B, H, T, S]` (the unfused path). Default false. */
  readonly returnWeights?: boolean;
  /** Dropout on (default: the module's training mode). */
  readonly training?: boolean;
  /** Seed of the dropout mask. */
  readonly seed?: number;
  /**
   * A norm module applied to `hiddenStates` first (the layer's `input_layernorm`): inside the int8
   * q/k/v product where `int8InputNorm` allows (the same numbers), else `inputNorm.forward(x)`.
   */
  readonly inputNorm?: InputNormModule | undefined;
  /** `[B, T, E]`, added to the output (the layer's skip connection): inside `o_proj`'s int8 product where it is one. */
  readonly residual?: Tensor | undefined;
}

/** What {@link DecoderAttention.forward} returns. */
export interface DecoderAttentionResult {
  /** `[B, T, E]`. */
  readonly output: Tensor;
  /** `[B, H, T, S]`, with `returnWeights`. */
  readonly attentionWeights?: Tensor;
}

const CONFIG_KEYS = ['embedDim', 'numHeads', 'numKeyValueHeads', 'headDim', 'bias', 'outputBias', 'queryKeyNorm', 'rmsNormEps', 'dropout', 'layerIndex', 'seed'];
const CALL_KEYS = ['positionEmbeddings', 'attentionMask', 'attentionBias', 'cache', 'returnWeights', 'training', 'seed', 'inputNorm', 'residual'];

/**
 * The self-attention of Llama-style decoders, equal to transformers' `LlamaAttention` and
 * `Qwen3Attention` (Mistral's and Qwen2's are Llama's with other defaults): q, k and v projections
 * to H query heads and Hkv key/value heads of width D, optional per-head RMSNorm of q and k (Qwen3),
 * rotary position embeddings (`applyRotary`), the keys and values of earlier steps from a `KvCache`,
 * grouped-query attention (`groupedQueryAttention`; fused on wasm when the weights are not asked
 * for), and the output projection. Children named as in the checkpoints: `q_proj`, `k_proj`,
 * `v_proj`, `o_proj`, and `q_norm`, `k_norm` with `queryKeyNorm`, so a layer's
 * `self_attn.*` weights load as they are (`checkpoint`, strictly).
 *
 * `hiddenStates [B, T, E]` → `output [B, T, E]` (and `attentionWeights [B, H, T, S]`).
 *
 * @example
 * const attention = new DecoderAttention({ embedDim: 2048, numHeads: 32, numKeyValueHeads: 8 });
 * const { output } = attention.forward(x, { positionEmbeddings: rotary.forward(positionIds), attentionMask: decoderMask(T, T, { padding }) });
 */
export class DecoderAttention extends Module {
  readonly embedDim: number;
  readonly numHeads: number;
  readonly numKeyValueHeads: number;
  readonly headDim: number;
  readonly dropout: number;
  readonly layerIndex: number;
  readonly qProj: Linear;
  readonly kProj: Linear;
  readonly vProj: Linear;
  readonly oProj: Linear;
  readonly qNorm: RMSNorm | undefined;
  readonly kNorm: RMSNorm | undefined;

  constructor(config: DecoderAttentionConfig, checkpoint?: StateDictSource) {
    super();
    const caller = 'DecoderAttention';
    checkObject(config, { caller, argument: 'config', expected: 'a DecoderAttentionConfig object ({ embedDim, numHeads, numKeyValueHeads?, headDim?, ... })' });
    checkOptionKeys(config, CONFIG_KEYS, caller, 'config');
    this.embedDim = checkInteger(config.embedDim, { caller, argument: 'embedDim', min: 1 });
    this.numHeads = checkInteger(config.numHeads, { caller, argument: 'numHeads', min: 1 });
    this.numKeyValueHeads = checkInteger(config.numKeyValueHeads ?? this.numHeads, { caller, argument: 'numKeyValueHeads', min: 1 });
    if (this.numHeads % this.numKeyValueHeads !== 0) {
      throw new InvalidArgumentError({ caller, argument: 'numKeyValueHeads', expected: `a divisor of numHeads = ${this.numHeads}`, received: `numKeyValueHeads=${this.numKeyValueHeads}` });
    }
    if (config.headDim === undefined && this.embedDim % this.numHeads !== 0) {
      throw new InvalidArgumentError({ caller, argument: 'embedDim', expected: `divisible by numHeads = ${this.numHeads}, or a headDim given`, received: `embedDim=${this.embedDim}` });
    }
    this.headDim = checkInteger(config.headDim ?? this.embedDim / this.numHeads, { caller, argument: 'headDim', min: 1 });
    const bias = checkBoolean(config.bias, { caller, argument: 'bias', fallback: false });
    const outputBias = checkBoolean(config.outputBias, { caller, argument: 'outputBias', fallback: bias });
    const queryKeyNorm = checkBoolean(config.queryKeyNorm, { caller, argument: 'queryKeyNorm', fallback: false });
    const rate = config.dropout ?? 0;
    if (typeof rate !== 'number' || !(rate >= 0 && rate < 1)) throw new InvalidArgumentError({ caller, argument: 'dropout', expected: 'a rate in [0, 1)', received: describeValue(rate) });
    this.dropout = rate;
    this.layerIndex = checkInteger(config.layerIndex ?? 0, { caller, argument: 'layerIndex', min: 0 });
    if (config.seed !== undefined) checkInteger(config.seed, { caller, argument: 'seed' });
    const seed = (offset: number) => (config.seed === undefined ? {} : { seed: config.seed + offset });
    const [e, h, kv, d] = [this.embedDim, this.numHeads, this.numKeyValueHeads, this.headDim];
    const eps = config.rmsNormEps;
    [this.qProj, this.kProj, this.vProj, this.oProj, this.qNorm, this.kNorm] = this.buildFrom(checkpoint, () => [
      this.registerModule('q_proj', new Linear(e, h * d, { bias, ...seed(0) })),
      this.registerModule('k_proj', new Linear(e, kv * d, { bias, ...seed(2) })),
      this.registerModule('v_proj', new Linear(e, kv * d, { bias, ...seed(4) })),
      this.registerModule('o_proj', new Linear(h * d, e, { bias: outputBias, ...seed(6) })),
      queryKeyNorm ? this.registerModule('q_norm', new RMSNorm(d, eps === undefined ? {} : { eps })) : undefined,
      queryKeyNorm ? this.registerModule('k_norm', new RMSNorm(d, eps === undefined ? {} : { eps })) : undefined,
    ] as const);
  }

  /** `hiddenStates [B, T, E]` → `output [B, T, E]`; see {@link DecoderAttentionCallOptions}. */
  forward(hiddenStates: Tensor, options: DecoderAttentionCallOptions = {}): DecoderAttentionResult {
    const caller = 'DecoderAttention.forward';
    this.assertLive(caller);
    checkOptionKeys(options, CALL_KEYS, caller);
    const x = checkWidth(hiddenStates, caller, 'hiddenStates', this.embedDim, 'embedDim');
    if (x.rank !== 3) throw new InvalidArgumentError({ caller, argument: 'hiddenStates', expected: '[B, T, E]', received: formatShape(x.shape) });
    const { positionEmbeddings, attentionMask, attentionBias, cache } = options;
    if (positionEmbeddings !== undefined) checkObject(positionEmbeddings, { caller, argument: 'positionEmbeddings', expected: 'the { cos, sin } of RotaryEmbedding.forward()' });
    if (cache !== undefined && !(cache instanceof KvCache)) throw new InvalidArgumentError({ caller, argument: 'cache', expected: 'a KvCache', received: describeValue(cache) });
    const returnWeights = checkBoolean(options.returnWeights, { caller, argument: 'returnWeights', fallback: false });
    const training = checkBoolean(options.training, { caller, argument: 'training', fallback: this.training });
    const [batch, length] = x.shape as [number, number, number];
    const [h, kv, d] = [this.numHeads, this.numKeyValueHeads, this.headDim];
    const norm = checkInputNormModule(options.inputNorm, caller);
    const residual = options.residual === undefined ? undefined : checkResidual(options.residual, x.shape, caller);
    const project = (merged: Tensor) => this.oProj.forward(merged, residual === undefined ? {} : { residual }); // [B, T, H·D] -> [B, T, E] (+ residual)
    return tidy(() => {
      const heads = (projected: Tensor, count: number, norm: RMSNorm | undefined) => {
        if (norm === undefined) return splitHeads(projected, count); // [B, T, count·D] -> [B, count, T, D]
        return transpose(norm.forward(reshape(projected, [batch, length, count, d])), [0, 2, 1, 3]); // [B, T, count, D], normed -> [B, count, T, D]
      };
      const int8 = int8QkvFusable(this.qProj, this.kProj, this.vProj); // quantized (quantizeLinearLayers): one int8 product, bit for bit the three
      const fusedNorm = int8 ? int8InputNorm(norm, x) : undefined; // the input norm inside that product
      const input = norm === undefined || fusedNorm !== undefined ? x : norm.forward(x); // [B, T, E]
      const fused = int8
        ? int8QkvProjection(this.qProj as unknown as Int8Linear, this.kProj as unknown as Int8Linear, this.vProj as unknown as Int8Linear, input, fusedNorm === undefined ? {} : { inputNorm: fusedNorm })
        : undefined;
      const [q, k, v] = fused === undefined ? [this.qProj.forward(input), this.kProj.forward(input), this.vProj.forward(input)] : [fused, fused, fused];
      if (cache !== undefined && !returnWeights && length === 1 && attentionBias === undefined && !training && this.qNorm?.eps === this.kNorm?.eps
        && (attentionMask === undefined || (attentionMask?.rank === 4 && attentionMask.dtype === 'bool'))) { // a decoding step on wasm: one kernel from the projections to the attended heads
        if (positionEmbeddings !== undefined) checkRotaryCosSin(positionEmbeddings.cos, positionEmbeddings.sin, batch, length, d, caller);
        const at = fused === undefined ? [0, 0, 0] : [0, h * d, (h + kv) * d];
        const norms = this.qNorm === undefined || this.kNorm === undefined ? {} : { queryNorm: this.qNorm.weight, keyNorm: this.kNorm.weight, normEpsilon: this.qNorm.eps }; // Qwen3: q_norm and k_norm share rms_norm_eps
        const output = cache.attendStep(this.layerIndex, { query: q!, key: k!, value: v!, heads: h, kvHeads: kv, headDim: d, queryAt: at[0]!, keyAt: at[1]!, valueAt: at[2]!, cos: positionEmbeddings?.cos, sin: positionEmbeddings?.sin, mask: attentionMask, ...norms });
        if (output !== undefined) return { output: project(output) };
      }
      const [qh, kh, vh] = fused === undefined ? [q, k, v] : split(fused, [h * d, kv * d, kv * d], -1);
      let [query, key, value]: Tensor[] = [];
      if (positionEmbeddings !== undefined && kernelRoute('rotary', [qh!, positionEmbeddings.cos, positionEmbeddings.sin]).useKernel) { // wasm: the transpose and the rotation in one pass per projection
        const { cos, sin } = positionEmbeddings;
        checkRotaryCosSin(cos, sin, batch, length, d, caller);
        const rotated = (projected: Tensor, count: number, norm: RMSNorm | undefined) => {
          const x = norm === undefined ? projected : norm.forward(reshape(projected, [batch, length, count, d])); // [B, T, count·D], or its heads [B, T, count, D] normed
          return engine().runKernel(ROTARY_KERNEL, { x, cos, sin }, { heads: count }) as Tensor; // -> [B, count, T, D]
        };
        [query, key, value] = [rotated(qh!, h, this.qNorm), rotated(kh!, kv, this.kNorm), heads(vh!, kv, undefined)];
      } else {
        [query, key, value] = [heads(qh!, h, this.qNorm), heads(kh!, kv, this.kNorm), heads(vh!, kv, undefined)];
        if (positionEmbeddings !== undefined) ({ query, key } = applyRotary(query!, key!, positionEmbeddings.cos, positionEmbeddings.sin));
      }
      const attention = { mask: attentionMask, bias: attentionBias, dropout: this.dropout, training, ...(options.seed === undefined ? {} : { seed: options.seed }) };
      let attended: { output: Tensor; attentionWeights?: Tensor };
      if (cache !== undefined && !returnWeights) { // the cache's own keys and values [B, Hkv, C, D], its first S positions read where they are
        attended = { output: cachedAttentionOutput(query, cache.append(this.layerIndex, key, value), attention) };
      } else {
        if (cache !== undefined) ({ key, value } = cache.update(this.layerIndex, key, value)); // [B, Hkv, S, D]
        attended = returnWeights ? groupedQueryAttention(query, key, value, attention) : { output: groupedQueryAttentionOutput(query, key, value, attention) };
      }
      const merged = mergeHeads(attended.output); // [B, H, T, D] -> [B, T, H·D]
      const output = project(merged); // [B, T, E]
      return attended.attentionWeights === undefined ? { output } : { output, attentionWeights: attended.attentionWeights };
    });
  }
}
