import { cast, div, expandDims, mul, slice, squeeze, sum, tensor2d, type Tensor } from '@tensorflow/tfjs-core';
import { Dropout, LayerNorm, Linear, Module, ModuleDict, ModuleList, skipInitialization, type StateDictSource } from '@attnkit/nn';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { encoderForward } from '../encoder/encoder-forward.js';
import type { ModernBertConfig } from './modernbert-config.js';
import { modernBertEncoderParts } from './modernbert-encoder-parts.js';
import { ModernBertEmbeddings, ModernBertEncoderLayer } from './modernbert-model.js';
import { ModernBertPredictionHead, predictionHeadKeys } from './modernbert-prediction-head.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/** A ModernBERT config with the sequence-classification keys (what `loadSequenceClassifier` reads for `model_type` `"modernbert"`). */
export type ModernBertClassificationConfig = SequenceClassificationConfig & ModernBertConfig;

/** The head keys of a {@link ModernBertForSequenceClassification} built from `config`: the prediction head's and `classifier.weight`, `classifier.bias`. */
export function modernBertClassifierKeys(config: ModernBertConfig): string[] {
  return [...predictionHeadKeys(config), 'classifier.weight', 'classifier.bias'];
}

/**
 * transformers' `ModernBertForSequenceClassification`: the ModernBERT encoder under `model`
 * (`model.embeddings.*`, `model.layers.N.*`, `model.final_norm.*`), pooling by
 * `classifier_pooling` — `"cls"`: the first token; `"mean"`: the mean over the tokens the attention
 * mask keeps — then `head` (`norm(act(dense(x)))`), dropout (`classifier_dropout`) and
 * `classifier` (a Linear with a bias). The constructor's checkpoint is loaded strictly (`newHead`: a
 * checkpoint without `head.*` and `classifier.*` gets them initialised); without one, every
 * parameter is drawn as {@link ModernBertModel}'s.
 *
 * `inputs` as `ModernBertModel.forward` → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./modernbert-classifier');
 * const { logits } = model.forward(tokenizer.encode(['What a film!'])); // [1, numLabels]
 */
export class ModernBertForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: ModernBertClassificationConfig;
  /** The encoder, in ModernBertModel's tree. */
  readonly model: ModuleDict<{ embeddings: ModernBertEmbeddings; layers: ModuleList<ModernBertEncoderLayer>; final_norm: LayerNorm }>;
  readonly head: ModernBertPredictionHead;
  readonly drop: Dropout;
  readonly classifier: Linear;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'ModernBertForSequenceClassification');
    const c = checkModelType(config, ['modernbert'], 'ModernBertForSequenceClassification') as ModernBertClassificationConfig;
    this.config = c;
    let initialised: string[] = [];
    [this.model, this.head, this.drop, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('model', new ModuleDict({
          embeddings: new ModernBertEmbeddings(c),
          layers: new ModuleList(Array.from({ length: c.numHiddenLayers }, (_, i) => new ModernBertEncoderLayer(c, i))),
          final_norm: new LayerNorm(c.hiddenSize, { eps: c.layerNormEps, bias: c.normBias }),
        })),
        this.registerModule('head', new ModernBertPredictionHead(c)),
        this.registerModule('drop', new Dropout(c.classifierDropout)),
        this.registerModule('classifier', new Linear(c.hiddenSize, c.numLabels)),
      ] as const);
      initialised = fillClassifier(this, checkpoint, { initializerRange: c.initializerRange, seed: options.seed, newKeys: options.newHead === true ? [modernBertClassifierKeys(c)] : [] });
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised;
  }

  /** Runs the encoder, the pooling and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    const caller = 'ModernBertForSequenceClassification.forward';
    this.assertLive(caller);
    const encoder = { embeddings: this.model.get('embeddings'), layers: this.model.get('layers'), finalNorm: this.model.get('final_norm') };
    const encoded = encoderForward(caller, this.config, modernBertEncoderParts(this.config, encoder), inputs); // checks inputs.attentionMask
    return classifyEncoded(encoded, inputs, ({ lastHiddenState }) => {
      const pooled = this.config.classifierPooling === 'cls' ? squeeze(slice(lastHiddenState, [0, 0, 0], [-1, 1, -1]), [1]) : meanOverMask(lastHiddenState, inputs.attentionMask); // [B, T, E] -> [B, E]
      return this.classifier.forward(this.drop.forward(this.head.forward(pooled))); // [B, E] -> [B, numLabels]
    });
  }
}

/** `hidden [B, T, E]` averaged over the tokens `attentionMask [B, T]` keeps (every token without one) → `[B, E]`. Called inside a tidy. */
function meanOverMask(hidden: Tensor, attentionMask: EncoderInputs['attentionMask']): Tensor {
  if (attentionMask === undefined) return squeeze(div(sum(hidden, 1, true), hidden.shape[1] as number), [1]);
  const mask = cast(Array.isArray(attentionMask) ? tensor2d(attentionMask as number[][], undefined, 'int32') : (attentionMask as Tensor), 'float32'); // [B, T] (checked by encoderForward)
  return div(sum(mul(hidden, expandDims(mask, 2)), 1), sum(mask, 1, true)); // [B, E] / [B, 1]
}
