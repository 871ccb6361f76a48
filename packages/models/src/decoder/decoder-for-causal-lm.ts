import { slice, tidy } from '@tensorflow/tfjs-core';
import type { KvCache } from '@attnkit/attention';
import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { quantizeWeightPerChannel } from '@attnkit/kernels';
import { Int8Linear, Linear, Module, linear, skipInitialization } from '@attnkit/nn';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { generate, stream } from '../generation/generate.js';
import { parseGenerationConfig, type GenerationConfig } from '../generation/generation-config.js';
import type { GeneratedText, GenerateInput, GenerateOptions, GenerationResult } from '../generation/generate-options.js';
import { checkDecoderOptions } from './check-decoder-options.js';
import type { DecoderConfig } from './decoder-config.js';
import type { CausalLMInputs, CausalLMOutputs } from './decoder-inputs.js';
import type { CreateCacheOptions, DecoderModel } from './decoder-model.js';
import { createDecoderCache } from './create-decoder-cache.js';
import type { DecoderCheckpoint } from './rotary-decoder-model.js';

/** Options of a causal LM's constructor. */
export interface CausalLMOptions {
  /** Seed of the random initialisation (without a checkpoint). */
  readonly seed?: number;
  /** The generation defaults (`parseGenerationConfig` of generation_config.json); default: config.json's special tokens. */
  readonly generationConfig?: GenerationConfig;
}

/**
 * What every causal language model offers (`loadCausalLM` returns one): the headless decoder and a
 * language-model head, `forward` to logits with a KV cache, and generation.
 *
 * @example
 * const model: CausalLM = await loadCausalLM('./SmolLM2-135M');
 * const { texts } = await model.generate('Once upon a time', { tokenizer, maxNewTokens: 20 });
 */
export interface CausalLM extends Module {
  readonly config: DecoderConfig;
  readonly generationConfig: GenerationConfig;
  /** The headless decoder (`model`, GPT-2's `transformer`). */
  readonly base: DecoderModel;
  /** Parameters not in the checkpoint, initialised instead (none: a causal LM loads strictly). */
  readonly initialisedKeys: readonly string[];
  forward(inputs: CausalLMInputs): CausalLMOutputs;
  createCache(options?: CreateCacheOptions): KvCache;
  generate(input: GenerateInput, options?: GenerateOptions): Promise<GenerationResult>;
  stream(input: GenerateInput, options: GenerateOptions): AsyncGenerator<GeneratedText, GenerationResult>;
  /** With a tied head, an int8 copy of the token embedding as `lm_head` (what `quantize: 'int8'` does); nothing otherwise. */
  quantizeTiedHead(): void;
}

/**
 * The causal language model of every decoder family (`LlamaForCausalLM`, `Qwen2ForCausalLM`,
 * `Qwen3ForCausalLM`, `MistralForCausalLM`, `GPT2LMHeadModel` extend it): the headless decoder under
 * its checkpoint name (`model`, `transformer`) and `lm_head` — a `Linear` `[V, E]` without bias, or,
 * with `tie_word_embeddings`, the token embedding itself (no parameter of its own, as transformers ties
 * them). Built with a checkpoint, every key is loaded strictly; without one, initialised as transformers does.
 *
 * `forward({ inputIds [B, T], attentionMask?, positionIds?, pastKeyValues?, logitsToKeep? })` →
 * `{ logits [B, T, V], pastKeyValues }`; `generate` and `stream` for text.
 */
export abstract class DecoderForCausalLM<M extends DecoderModel> extends Module implements CausalLM {
  readonly config: DecoderConfig;
  readonly generationConfig: GenerationConfig;
  readonly lmHead: Linear | undefined;
  readonly initialisedKeys: readonly string[] = [];
  readonly #base: M;
  #int8TiedHead: Int8Linear | undefined;

  /**
   * `basePath`: the base model's name in the checkpoint; `createBase(checkpoint)` builds it (`null`:
   * without values, as this model loads them); `checkpoint`: values by key (`model.embed_tokens.weight`,
   * `lm_head.weight`, ...), loaded strictly.
   */
  protected constructor(config: DecoderConfig, basePath: string, createBase: (checkpoint: DecoderCheckpoint, seed: number | undefined) => M, checkpoint: DecoderCheckpoint, options: CausalLMOptions) {
    super();
    if (typeof basePath !== 'string' || typeof createBase !== 'function') throw new InvalidArgumentError({ caller: new.target.name, argument: 'config', expected: "a family's causal LM (LlamaForCausalLM, Qwen3ForCausalLM, GPT2LMHeadModel, ...): DecoderForCausalLM is their base", received: describeValue(config) });
    const caller = new.target.name;
    checkObject(config, { caller, argument: 'config', expected: 'a parsed decoder config (parseDecoderConfig)' });
    const { seed, generationConfig } = checkDecoderOptions(options, ['seed', 'generationConfig'], caller);
    [this.#base, this.lmHead] = this.guard(() => {
      const base = this.registerModule(basePath, createBase(checkpoint === undefined ? undefined : null, seed));
      const c = base.config;
      if (c.modelType !== config.modelType) throw new InvalidArgumentError({ caller, argument: 'config.modelType', expected: `that of the config its base model was built from ("${c.modelType}")`, received: describeValue(config.modelType) });
      const head = c.tieWordEmbeddings ? undefined : skipInitialization(() => this.registerModule('lm_head', new Linear(c.hiddenSize, c.vocabSize, { bias: false })));
      if (checkpoint === undefined) {
        if (head !== undefined) initialiseLikeHuggingFace(this, c.initializerRange, seed === undefined ? undefined : seed + 1_000_003, (name) => name === 'lm_head.weight');
      } else if (checkpoint !== null) {
        this.loadStateDict(checkpoint);
      }
      return [base, head] as const;
    });
    this.config = this.#base.config;
    this.generationConfig = generationConfig ?? parseGenerationConfig(undefined, this.config);
  }

  get base(): M {
    return this.#base;
  }

  /** Logits of the new tokens: the decoder, then the head on its last `logitsToKeep` positions. `logits` is new (dispose it). */
  forward(inputs: CausalLMInputs): CausalLMOutputs {
    const caller = `${this.className}.forward`;
    this.assertLive(caller);
    const { logitsToKeep, ...decoderInputs } = checkObject(inputs, { caller, argument: 'inputs', expected: 'an object { inputIds, attentionMask?, positionIds?, pastKeyValues?, useCache?, logitsToKeep? }' });
    const keep = logitsToKeep === undefined ? undefined : checkInteger(logitsToKeep, { caller, argument: 'logitsToKeep', min: 1 });
    const { lastHiddenState, pastKeyValues } = this.#base.forward(decoderInputs, caller);
    try {
      const logits = tidy(() => {
        const length = lastHiddenState.shape[1] as number;
        const kept = keep === undefined || keep >= length ? lastHiddenState : slice(lastHiddenState, [0, length - keep, 0], [-1, keep, -1]); // [B, T, E] -> [B, N, E]
        if (this.lmHead !== undefined) return this.lmHead.forward(kept); // [B, N, V]
        return this.#int8TiedHead === undefined ? linear(kept, this.#base.inputEmbeddings.weight) : this.#int8TiedHead.forward(kept);
      });
      return { logits, pastKeyValues };
    } finally {
      lastHiddenState.dispose();
    }
  }

  /**
   * With a tied head (`tie_word_embeddings`), gives the head an int8 copy of the token embedding
   * (`[V, E]`, quantized per row as every `Int8Linear`), registered as `lm_head`; the embedding lookup
   * keeps the float table. `loadCausalLM(source, { quantize: 'int8' })` calls it, so an int8 model
   * reads one byte per weight of its head too (the head is the largest matrix of a small model:
   * 28 M of SmolLM-135M's 135 M parameters), as ONNX Runtime's dynamically quantized models do. Does
   * nothing for an untied head (quantized as every `Linear`) or when called twice. Inference only.
   *
   * @example
   * model.quantizeTiedHead(); // logits from int8 arithmetic, the embeddings unchanged
   */
  quantizeTiedHead(): void {
    this.assertLive(`${this.className}.quantizeTiedHead`);
    if (this.lmHead !== undefined || this.#int8TiedHead !== undefined) return;
    const { vocabSize, hiddenSize } = this.config;
    const weight = quantizeWeightPerChannel({ values: this.#base.inputEmbeddings.weight.dataSync() as Float32Array, inFeatures: hiddenSize, outFeatures: vocabSize });
    this.#int8TiedHead = this.registerModule('lm_head', new Int8Linear(weight));
    this.#int8TiedHead.eval();
  }

  /** An empty `KvCache` for this model, bounded by `maxLength` positions (default `maxPositionEmbeddings`). */
  createCache(options: CreateCacheOptions = {}): KvCache {
    const caller = `${this.className}.createCache`;
    this.assertLive(caller);
    return createDecoderCache(this.config, options, caller);
  }

  /**
   * Generates for a prompt or a batch (token ids, or texts with `options.tokenizer`): greedy, or
   * sampling with `temperature`, `topK`, `topP`, `minP` and a `seed`; `repetitionPenalty`,
   * `maxNewTokens`, `stop` strings, end-of-sequence ids; defaults from generation_config.json as
   * transformers applies them. Rows are left-padded; `onToken` hears every token; `signal` aborts.
   */
  generate(input: GenerateInput, options: GenerateOptions = {}): Promise<GenerationResult> {
    return generate(this, input, options, `${this.className}.generate`);
  }

  /** {@link generate} as an async iterator of text pieces `{ row, text }`, each valid UTF-8 (needs `options.tokenizer`). */
  stream(input: GenerateInput, options: GenerateOptions): AsyncGenerator<GeneratedText, GenerationResult> {
    return stream(this, input, options, `${this.className}.stream`);
  }
}
