import { add, mul, split, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkResidual } from '@attnkit/kernels';
import { KvCache, cachedAttentionOutput, groupedQueryAttentionOutput, mergeHeads, splitHeads } from '@attnkit/attention';
import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue } from '@attnkit/errors';
import { Embedding, LayerNorm, Linear, Module, ModuleList, activationByName, checkInputNormModule, linearWithInputNorm, skipInitialization, type ActivationFunction, type InputNormModule } from '@attnkit/nn';
import { createDecoderCache } from '../decoder/create-decoder-cache.js';
import type { DecoderModelType } from '../decoder/decoder-config.js';
import { DecoderForCausalLM, type CausalLMOptions } from '../decoder/decoder-for-causal-lm.js';
import type { DecoderInputs, DecoderOutputs } from '../decoder/decoder-inputs.js';
import type { CreateCacheOptions, DecoderModel } from '../decoder/decoder-model.js';
import { decoderStep } from '../decoder/decoder-step.js';
import { checkDecoderOptions } from '../decoder/check-decoder-options.js';
import { checkDecoderModelType, type DecoderCheckpoint } from '../decoder/rotary-decoder-model.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import type { Gpt2Config } from './gpt2-config.js';

// The module tree mirrors transformers' modeling_gpt2: `transformer.wte`, `transformer.h.N.attn.c_attn`,
// `transformer.h.N.mlp.c_fc`, `transformer.ln_f`. Its Conv1D weights are stored [in, out]; they load
// transposed into Linear layers ([out, in], GPT2_CHECKPOINT_KEYS), which run on attnkit's kernels and quantize to int8.

/** What a GPT-2 block's attention or MLP may do besides its own forward: apply the block's norm first, add the residual last (the same numbers as those ops; inside the int8 products where they run). */
export interface Gpt2SublayerOptions {
  /** The block's `ln_1` / `ln_2`, applied to the input first. */
  readonly inputNorm?: InputNormModule | undefined;
  /** `[B, T, E]`, added to the output. */
  readonly residual?: Tensor | undefined;
}

function checkSublayerOptions(options: Gpt2SublayerOptions, x: unknown, caller: string): { norm: InputNormModule | undefined; fusion: { residual?: Tensor } } {
  checkObject(options, { caller, argument: 'options', expected: 'an object { inputNorm?, residual? }' });
  checkOptionKeys(options, ['inputNorm', 'residual'], caller);
  const norm = checkInputNormModule(options.inputNorm, caller);
  if (options.residual === undefined) return { norm, fusion: {} };
  const input = checkTensor(x, { caller, argument: 'x', dtype: 'float32', rank: 3, shape: '[B, T, E]' }); // the residual is of its shape
  return { norm, fusion: { residual: checkResidual(options.residual, input.shape, caller) } };
}

/** A block's `cache`: `undefined` (no cache) or the model's `KvCache` (`createCache`). */
function checkCache(cache: unknown, caller: string): void {
  if (cache !== undefined && !(cache instanceof KvCache)) throw new InvalidArgumentError({ caller, argument: 'cache', expected: 'a KvCache (model.createCache()) or undefined', received: describeValue(cache) });
}

/**
 * `h.N.attn`: `c_attn` projects to queries, keys and values at once (`[E] → [3E]`), H heads attend
 * causally (scores scaled by 1/√D, and by 1/(N + 1) with `scale_attn_by_inverse_layer_idx`), `c_proj`
 * projects back. `hidden [B, T, E]` → `[B, T, E]`.
 *
 * @example
 * const out = block.attn.forward(hidden, mask, cache); // mask bool [B, 1, T, S]
 */
export class GPT2Attention extends Module {
  readonly cAttn: Linear;
  readonly cProj: Linear;
  readonly numHeads: number;
  readonly layerIndex: number;
  /** What the queries are multiplied by so that attention's 1/√D becomes GPT-2's scale. */
  readonly queryScale: number;
  readonly dropout: number;

  constructor(c: Gpt2Config, layerIndex: number) {
    super();
    checkObject(c, { caller: 'GPT2Attention', argument: 'config', expected: 'a parsed GPT-2 config (parseGpt2Config)' });
    checkInteger(layerIndex, { caller: 'GPT2Attention', argument: 'layerIndex', min: 0, max: c.numHiddenLayers - 1 });
    [this.numHeads, this.layerIndex, this.dropout] = [c.numAttentionHeads, layerIndex, c.attentionDropout];
    this.queryScale = (c.scaleAttnWeights ? 1 : Math.sqrt(c.headDim)) / (c.scaleAttnByInverseLayerIdx ? layerIndex + 1 : 1);
    [this.cAttn, this.cProj] = this.guard(() => [
      this.registerModule('c_attn', new Linear(c.hiddenSize, 3 * c.hiddenSize)),
      this.registerModule('c_proj', new Linear(c.hiddenSize, c.hiddenSize)),
    ] as const);
  }

  /** `hidden [B, T, E]` → `[B, T, E]`; with `options`, `residual + attn(inputNorm(hidden))` ({@link Gpt2SublayerOptions}). */
  forward(hidden: Tensor, attentionMask: Tensor | undefined, cache: KvCache | undefined, options: Gpt2SublayerOptions = {}): Tensor {
    this.assertLive('GPT2Attention.forward');
    checkCache(cache, 'GPT2Attention.forward');
    const { norm, fusion } = checkSublayerOptions(options, hidden, 'GPT2Attention.forward');
    return tidy(() => {
      const qkv = linearWithInputNorm(this.cAttn, hidden, norm); // [B, T, 3E]
      const width = (qkv.shape[2] as number) / 3;
      if (cache !== undefined && hidden.shape[1] === 1 && this.queryScale === 1 && !this.training && (attentionMask === undefined || (attentionMask?.rank === 4 && attentionMask.dtype === 'bool'))) {
        const output = cache.attendStep(this.layerIndex, { query: qkv, key: qkv, value: qkv, heads: this.numHeads, kvHeads: this.numHeads, headDim: width / this.numHeads, queryAt: 0, keyAt: width, valueAt: 2 * width, mask: attentionMask }); // a decoding step on wasm: one kernel
        if (output !== undefined) return this.cProj.forward(output, fusion);
      }
      const [q, k, v] = split(qkv, 3, 2).map((x) => splitHeads(x, this.numHeads)) as [Tensor, Tensor, Tensor]; // [B, T, 3E] -> 3 × [B, H, T, D]
      const query = this.queryScale === 1 ? q : mul(q, this.queryScale);
      const attention = { mask: attentionMask, dropout: this.dropout, training: this.training };
      const context = cache === undefined ? groupedQueryAttentionOutput(query, k, v, attention) : cachedAttentionOutput(query, cache.append(this.layerIndex, k, v), attention); // [B, H, T, D] over the cache's S positions
      return this.cProj.forward(mergeHeads(context), fusion); // [B, H, T, D] -> [B, T, E] (+ residual)
    });
  }
}

/**
 * `h.N.mlp`: `c_proj(act(c_fc(x)))`, `[B, T, E] → [B, T, I] → [B, T, E]` (`activation_function`, `gelu_new` by default).
 *
 * @example
 * const out = block.mlp.forward(x); // [B, T, E]
 */
export class GPT2MLP extends Module {
  readonly cFc: Linear;
  readonly cProj: Linear;
  readonly activation: ActivationFunction;

  constructor(c: Gpt2Config) {
    super();
    checkObject(c, { caller: 'GPT2MLP', argument: 'config', expected: 'a parsed GPT-2 config (parseGpt2Config)' });
    this.activation = activationByName(c.hiddenAct, 'GPT2MLP');
    [this.cFc, this.cProj] = this.guard(() => [
      this.registerModule('c_fc', new Linear(c.hiddenSize, c.intermediateSize)),
      this.registerModule('c_proj', new Linear(c.intermediateSize, c.hiddenSize)),
    ] as const);
  }

  /** `x [B, T, E]` → `[B, T, E]`; with `options`, `residual + mlp(inputNorm(x))` ({@link Gpt2SublayerOptions}). */
  forward(x: Tensor, options: Gpt2SublayerOptions = {}): Tensor {
    this.assertLive('GPT2MLP.forward');
    const { norm, fusion } = checkSublayerOptions(options, x, 'GPT2MLP.forward');
    return tidy(() => this.cProj.forward(this.activation(linearWithInputNorm(this.cFc, x, norm)), fusion));
  }
}

/**
 * `h.N`: pre-LN attention and feed-forward, each added to the residual (`ln_1`, `attn`, `ln_2`, `mlp`).
 * `hidden [B, T, E]` → `[B, T, E]`.
 *
 * @example
 * hidden = model.h.at(0).forward(hidden, mask, cache);
 */
export class GPT2Block extends Module {
  readonly ln1: LayerNorm;
  readonly attn: GPT2Attention;
  readonly ln2: LayerNorm;
  readonly mlp: GPT2MLP;

  constructor(c: Gpt2Config, layerIndex: number) {
    super();
    checkObject(c, { caller: 'GPT2Block', argument: 'config', expected: 'a parsed GPT-2 config (parseGpt2Config)' });
    checkInteger(layerIndex, { caller: 'GPT2Block', argument: 'layerIndex', min: 0, max: c.numHiddenLayers - 1 });
    [this.ln1, this.attn, this.ln2, this.mlp] = this.guard(() => [
      this.registerModule('ln_1', new LayerNorm(c.hiddenSize, { eps: c.normEps })),
      this.registerModule('attn', new GPT2Attention(c, layerIndex)),
      this.registerModule('ln_2', new LayerNorm(c.hiddenSize, { eps: c.normEps })),
      this.registerModule('mlp', new GPT2MLP(c)),
    ] as const);
  }

  forward(hidden: Tensor, attentionMask: Tensor | undefined, cache: KvCache | undefined): Tensor {
    this.assertLive('GPT2Block.forward');
    checkCache(cache, 'GPT2Block.forward');
    return tidy(() => { // each LayerNorm applied by the sublayer it feeds, each sum made by the sublayer's last product: inside the int8 kernels where they run (the same numbers)
      const attended = this.attn.forward(hidden, attentionMask, cache, { inputNorm: this.ln1, residual: hidden }); // x + attn(ln_1(x))
      return this.mlp.forward(attended, { inputNorm: this.ln2, residual: attended }); // h + mlp(ln_2(h))
    });
  }
}

/**
 * transformers' `GPT2Model`: token embeddings `wte` plus learned positions `wpe`, blocks `h.N`, a final
 * LayerNorm `ln_f`. Positions count each row's tokens (left padding) and stop at `n_positions`.
 *
 * `forward({ inputIds [B, T], attentionMask?, positionIds?, pastKeyValues? })` → `{ lastHiddenState [B, T, E], pastKeyValues }`.
 *
 * @example
 * const model = await loadDecoder('./gpt2'); // a GPT2Model
 * const { lastHiddenState } = model.forward({ inputIds: [[464, 3290]] }); // [1, 2, 768]
 */
export class GPT2Model extends Module implements DecoderModel {
  static readonly modelTypes: readonly DecoderModelType[] = ['gpt2'];
  readonly config: Gpt2Config;
  readonly wte: Embedding;
  readonly wpe: Embedding;
  readonly h: ModuleList<GPT2Block>;
  readonly lnF: LayerNorm;

  /** `checkpoint`: values by key (`wte.weight`, `h.0.attn.c_attn.weight` as `[out, in]`, ...), loaded strictly; see `DecoderCheckpoint`. */
  constructor(config: Gpt2Config, checkpoint?: DecoderCheckpoint, options: { readonly seed?: number } = {}) {
    super();
    const c = checkDecoderModelType(config, GPT2Model.modelTypes, 'GPT2Model') as Gpt2Config;
    const { seed } = checkDecoderOptions(options, ['seed'], 'GPT2Model');
    this.config = c;
    [this.wte, this.wpe, this.h, this.lnF] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('wte', new Embedding(c.vocabSize, c.hiddenSize)),
        this.registerModule('wpe', new Embedding(c.maxPositionEmbeddings, c.hiddenSize)),
        this.registerModule('h', new ModuleList(Array.from({ length: c.numHiddenLayers }, (_, i) => new GPT2Block(c, i)))),
        this.registerModule('ln_f', new LayerNorm(c.hiddenSize, { eps: c.normEps })),
      ] as const);
      if (checkpoint === undefined) initialiseLikeHuggingFace(this, c.initializerRange, seed);
      else if (checkpoint !== null) this.loadStateDict(checkpoint);
      return parts;
    });
  }

  get inputEmbeddings(): Embedding {
    return this.wte;
  }

  forward(inputs: DecoderInputs, caller = `${this.className}.forward`): DecoderOutputs {
    this.assertLive(caller);
    const step = decoderStep(caller, this.config, inputs);
    let failed = true;
    try {
      const lastHiddenState = tidy(() => {
        const mask = step.masks.get('full_attention');
        let hidden = add(this.wte.forward(step.inputIds, { idsChecked: true }), this.wpe.forward(step.positionIds, { idsChecked: true })); // [B, T, E]
        for (const block of this.h) hidden = block.forward(hidden, mask, step.cache);
        return this.lnF.forward(hidden); // [B, T, E]
      });
      failed = false;
      return { lastHiddenState, pastKeyValues: step.cache };
    } finally {
      step.dispose(failed);
    }
  }

  createCache(options: CreateCacheOptions = {}): KvCache {
    this.assertLive(`${this.className}.createCache`);
    return createDecoderCache(this.config, options, `${this.className}.createCache`);
  }
}

/**
 * transformers' `GPT2LMHeadModel`: `transformer` ({@link GPT2Model}) and `lm_head`, tied to `wte` unless
 * `tie_word_embeddings` is false. See {@link DecoderForCausalLM}.
 *
 * @example
 * const model = await loadCausalLM('./gpt2'); // a GPT2LMHeadModel
 * const { tokens } = await model.generate([464, 3290], { maxNewTokens: 8 });
 */
export class GPT2LMHeadModel extends DecoderForCausalLM<GPT2Model> {
  constructor(config: Gpt2Config, checkpoint?: DecoderCheckpoint, options: CausalLMOptions = {}) {
    super(config, 'transformer', (values, seed) => new GPT2Model(config, values, seed === undefined ? {} : { seed }), checkpoint, options);
  }

  /** The decoder (`transformer.*`). */
  get transformer(): GPT2Model {
    return this.base;
  }
}
