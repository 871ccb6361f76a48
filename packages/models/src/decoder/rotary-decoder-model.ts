import { tidy } from '@tensorflow/tfjs-core';
import { RotaryEmbedding, type KvCache } from '@attnkit/attention';
import { InvalidArgumentError, checkObject } from '@attnkit/errors';
import { Embedding, Module, ModuleList, RMSNorm, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import { checkDecoderOptions } from './check-decoder-options.js';
import type { DecoderConfig, DecoderModelType } from './decoder-config.js';
import type { DecoderInputs, DecoderOutputs } from './decoder-inputs.js';
import { DecoderLayer } from './decoder-layer.js';
import type { CreateCacheOptions, DecoderModel } from './decoder-model.js';
import { createDecoderCache } from './create-decoder-cache.js';
import { checkDecoderSize } from './decoder-size.js';
import { decoderStep } from './decoder-step.js';

/**
 * How a decoder's constructor gets its values: a checkpoint (loaded strictly), `undefined` (initialised
 * as transformers does, `seed` making it reproducible), or `null` (zeros: the causal LM around it loads
 * the values into the whole tree).
 */
export type DecoderCheckpoint = StateDictSource | undefined | null;

/** The `model_type`s a class builds, checked by its constructor before anything is allocated. */
export function checkDecoderModelType(config: DecoderConfig, expected: readonly DecoderModelType[], caller: string): DecoderConfig {
  checkObject(config, { caller, argument: 'config', expected: 'a parsed decoder config (parseDecoderConfig)' });
  if (!expected.includes(config.modelType)) throw new InvalidArgumentError({ caller, argument: 'config.modelType', expected: expected.map((t) => `"${t}"`).join(' or '), received: JSON.stringify(config.modelType), hint: 'loadCausalLM and loadDecoder pick the model class from config.json.' });
  checkDecoderSize(config, caller);
  return config;
}

/**
 * The headless model of the Llama-style families (`LlamaModel`, `MistralModel`, `Qwen2Model`,
 * `Qwen3Model`, which extend it): token embeddings, decoder layers, a final RMSNorm, and the rotary
 * embedding their attention layers share. Children named as in the checkpoints: `embed_tokens`,
 * `layers.N` ({@link DecoderLayer}), `norm`, `rotary_emb` (no parameters).
 *
 * `forward({ inputIds [B, T], attentionMask?, positionIds?, pastKeyValues? })` → `{ lastHiddenState [B, T, E], pastKeyValues }`.
 *
 * @example
 * const model = await loadDecoder('./Qwen3-0.6B'); // a Qwen3Model
 * const { lastHiddenState } = model.forward({ inputIds, attentionMask }); // [B, T, E]
 */
export class RotaryDecoderModel extends Module implements DecoderModel {
  /** The `model_type`s this class builds. */
  static readonly modelTypes: readonly DecoderModelType[] = ['llama', 'mistral', 'qwen2', 'qwen3'];
  readonly config: DecoderConfig;
  readonly embedTokens: Embedding;
  readonly layers: ModuleList<DecoderLayer>;
  readonly norm: RMSNorm;
  readonly rotaryEmb: RotaryEmbedding;

  /** `checkpoint`: values by key (`embed_tokens.weight`, `layers.0.self_attn.q_proj.weight`, ...), loaded strictly; see {@link DecoderCheckpoint}. */
  constructor(config: DecoderConfig, checkpoint?: DecoderCheckpoint, options: { readonly seed?: number } = {}) {
    super();
    const c = checkDecoderModelType(config, (new.target as typeof RotaryDecoderModel).modelTypes, new.target.name);
    const { seed } = checkDecoderOptions(options, ['seed'], new.target.name);
    if (c.rotary === undefined) throw new InvalidArgumentError({ caller: new.target.name, argument: 'config.rotary', expected: 'a rotary embedding (parseLlamaConfig, parseQwen2Config, parseQwen3Config)', received: 'undefined' });
    this.config = c;
    [this.embedTokens, this.layers, this.norm, this.rotaryEmb] = this.guard(() => {
      const parts = skipInitialization(() => [ // no random draw: values come next
        this.registerModule('embed_tokens', new Embedding(c.vocabSize, c.hiddenSize, c.padTokenId === undefined ? {} : { paddingIdx: c.padTokenId })),
        this.registerModule('layers', new ModuleList(Array.from({ length: c.numHiddenLayers }, (_, i) => new DecoderLayer(c, i)))),
        this.registerModule('norm', new RMSNorm(c.hiddenSize, { eps: c.normEps })),
        this.registerModule('rotary_emb', new RotaryEmbedding(c.rotary!)),
      ] as const);
      if (checkpoint === undefined) initialiseDecoder(this, c, seed);
      else if (checkpoint !== null) this.loadStateDict(checkpoint);
      return parts;
    });
  }

  get inputEmbeddings(): Embedding {
    return this.embedTokens;
  }

  /** Runs the decoder. `lastHiddenState` is a new tensor (dispose it); the cache, when there is one, holds this step's keys and values. */
  forward(inputs: DecoderInputs, caller = `${this.className}.forward`): DecoderOutputs {
    this.assertLive(caller);
    const step = decoderStep(caller, this.config, inputs);
    let failed = true;
    try {
      const lastHiddenState = tidy(() => {
        const positionEmbeddings = this.rotaryEmb.forward(step.positionIds); // cos, sin [B, T, D], shared by every layer
        let hidden = this.embedTokens.forward(step.inputIds, { idsChecked: true }); // [B, T] -> [B, T, E]
        [...this.layers].forEach((layer, i) => {
          hidden = layer.forward(hidden, { positionEmbeddings, attentionMask: step.masks.get(this.config.layerTypes[i]!), cache: step.cache });
        });
        return this.norm.forward(hidden); // [B, T, E]
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

/** transformers' `_init_weights` for a decoder: Linear and Embedding weights `N(0, initializer_range)` (the padding row 0), biases 0; norms keep their ones. */
export function initialiseDecoder(module: Module, config: DecoderConfig, seed: number | undefined): void {
  const norms = new Set(module.namedModules().filter(([, m]) => m instanceof RMSNorm).map(([path]) => `${path}.weight`));
  initialiseLikeHuggingFace(module, config.initializerRange, seed, (name) => !norms.has(name));
}
