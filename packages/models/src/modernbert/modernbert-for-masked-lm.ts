import { add, matMul, reshape, tidy, zeros, type Tensor, type Variable } from '@tensorflow/tfjs-core';
import { checkBoolean, checkInteger, checkObject } from '@attnkit/errors';
import { LayerNorm, Linear, Module, ModuleDict, ModuleList, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderConfig } from '../encoder/encoder-config.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { encoderForward } from '../encoder/encoder-forward.js';
import { initialiseLikeHuggingFace } from '../encoder/initialise-like-hugging-face.js';
import type { ModernBertConfig } from './modernbert-config.js';
import { modernBertEncoderParts } from './modernbert-encoder-parts.js';
import { ModernBertEmbeddings, ModernBertEncoderLayer } from './modernbert-model.js';
import { ModernBertPredictionHead } from './modernbert-prediction-head.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/**
 * transformers' `ModernBertForMaskedLM`: the ModernBERT encoder under `model`, then `head`
 * (`norm(act(dense(x)))`) and `decoder` — with `tie_word_embeddings` (the default) its weight is
 * the token embeddings and only `decoder.bias` is stored (as `save_pretrained` writes it);
 * otherwise `decoder.weight` too. The checkpoint (every key, `model.*`, `head.*`, `decoder.*`) is
 * loaded strictly; without one, every parameter is drawn `N(0, initializer_range)`.
 * `loadModernBertForMaskedLM` reads a folder.
 *
 * `inputs` as `ModernBertModel.forward` → `{ logits [B, T, V] }`.
 *
 * @example
 * const mlm = await loadModernBertForMaskedLM('./ModernBERT-base');
 * const { logits } = mlm.forward(tokenizer.encode(['Paris is the [MASK] of France.'])); // [1, T, V]
 */
export class ModernBertForMaskedLM extends Module {
  readonly config: ModernBertConfig;
  /** The encoder, in ModernBertModel's tree. */
  readonly model: ModuleDict<{ embeddings: ModernBertEmbeddings; layers: ModuleList<ModernBertEncoderLayer>; final_norm: LayerNorm }>;
  readonly head: ModernBertPredictionHead;
  /** `decoder.bias` (with `decoder_bias`) and, without `tie_word_embeddings`, `decoder.weight`. */
  readonly decoder: Linear | ModernBertTiedDecoder;
  readonly initialisedKeys: readonly string[] = [];

  constructor(config: EncoderConfig, checkpoint?: StateDictSource, options: { readonly seed?: number } = {}) {
    super();
    const caller = 'ModernBertForMaskedLM';
    checkBuildOptions(checkpoint, options, ['seed'], caller);
    const c = checkModelType(config, ['modernbert'], caller) as ModernBertConfig;
    this.config = c;
    [this.model, this.head, this.decoder] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('model', new ModuleDict({
          embeddings: new ModernBertEmbeddings(c),
          layers: new ModuleList(Array.from({ length: c.numHiddenLayers }, (_, i) => new ModernBertEncoderLayer(c, i))),
          final_norm: new LayerNorm(c.hiddenSize, { eps: c.layerNormEps, bias: c.normBias }),
        })),
        this.registerModule('head', new ModernBertPredictionHead(c)),
        this.registerModule('decoder', c.tieWordEmbeddings ? new ModernBertTiedDecoder(c) : new Linear(c.hiddenSize, c.vocabSize, { bias: c.decoderBias })),
      ] as const);
      if (checkpoint === undefined) initialiseLikeHuggingFace(this, c.initializerRange, options.seed);
      else this.loadStateDict(checkpoint);
      return parts;
    });
  }

  /** Runs the encoder, the head and the decoder: `{ logits [B, T, V] }`. Dispose the output. */
  forward(inputs: EncoderInputs): { logits: Tensor } {
    const caller = 'ModernBertForMaskedLM.forward';
    this.assertLive(caller);
    const embeddings = this.model.get('embeddings');
    const { lastHiddenState } = encoderForward(caller, this.config, modernBertEncoderParts(this.config, { embeddings, layers: this.model.get('layers'), finalNorm: this.model.get('final_norm') }), inputs);
    try {
      return tidy(() => {
        const hidden = this.head.forward(lastHiddenState); // [B, T, E]
        if (this.decoder instanceof Linear) return { logits: this.decoder.forward(hidden) }; // [B, T, V]
        const [batch, length, width] = hidden.shape as [number, number, number];
        const flat = matMul(reshape(hidden, [batch * length, width]), embeddings.tokEmbeddings.weight, false, true); // [B·T, E] x [V, E]ᵀ -> [B·T, V]
        const { bias } = this.decoder;
        return { logits: reshape(bias === undefined ? flat : add(flat, bias), [batch, length, -1]) }; // [B, T, V]
      });
    } finally {
      lastHiddenState.dispose();
    }
  }
}

/**
 * ModernBERT's tied `decoder`: its weight is the token embeddings (no parameter of its own), its
 * `bias [V]` a parameter (with `decoder_bias`). `ModernBertForMaskedLM` applies it.
 */
export class ModernBertTiedDecoder extends Module {
  readonly bias: Variable | undefined;

  constructor(c: ModernBertConfig) {
    super();
    const caller = 'ModernBertTiedDecoder';
    checkObject(c, { caller, argument: 'config', expected: 'a parsed ModernBERT config (parseModernBertConfig)' });
    const vocabSize = checkInteger(c.vocabSize, { caller, argument: 'config.vocabSize', min: 1 });
    this.bias = checkBoolean(c.decoderBias, { caller, argument: 'config.decoderBias', fallback: true }) ? this.registerParameter('bias', zeros([vocabSize])) : undefined;
  }
}
