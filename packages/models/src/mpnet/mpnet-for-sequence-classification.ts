import { Embedding, Module, ModuleDict, ModuleList, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { ClassificationHead } from '../classification/classification-head.js';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { encoderForward } from '../encoder/encoder-forward.js';
import { RobertaEmbeddings } from '../roberta/roberta-model.js';
import { ROBERTA_CLASSIFIER_KEYS } from '../roberta/roberta-for-sequence-classification.js';
import { MPNetLayer } from './mpnet-model.js';
import { mpnetPositionBias } from './mpnet-position-bias.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/**
 * transformers' `MPNetForSequenceClassification`: the MPNet encoder without a pooler under `mpnet`
 * (`MPNetModel(config, add_pooling_layer=False)`: `mpnet.embeddings.*`, `mpnet.encoder.layer.N.*`,
 * `mpnet.encoder.relative_attention_bias.weight`), then `classifier`: dense → tanh → out_proj on the
 * first token, as RoBERTa's (its dropout is `hidden_dropout_prob`). The constructor's checkpoint is
 * loaded strictly (`newHead`: a checkpoint without `classifier.*` gets one initialised); without
 * one, transformers' initialisation.
 *
 * `inputs` as `MPNetModel.forward` → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./mpnet-classifier');
 * const { logits } = model.forward(tokenizer.encode([['A man eats.', 'Someone eats food.']])); // [1, numLabels]
 */
export class MPNetForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  /** The encoder without its pooler, in MPNetModel's tree. */
  readonly mpnet: ModuleDict<{ embeddings: RobertaEmbeddings; encoder: ModuleDict<{ layer: ModuleList<MPNetLayer>; relative_attention_bias: Embedding }> }>;
  readonly classifier: ClassificationHead;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'MPNetForSequenceClassification');
    this.config = checkModelType(config, ['mpnet'], 'MPNetForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.mpnet, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('mpnet', new ModuleDict({
          embeddings: new RobertaEmbeddings(config),
          encoder: new ModuleDict({
            layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new MPNetLayer(config))),
            relative_attention_bias: new Embedding(config.relativeAttentionNumBuckets, config.numAttentionHeads),
          }),
        })),
        this.registerModule('classifier', new ClassificationHead(config, 'tanh')),
      ] as const);
      initialised = fillClassifier(this, checkpoint, { initializerRange: config.initializerRange, seed: options.seed, newKeys: options.newHead === true ? [ROBERTA_CLASSIFIER_KEYS] : [] });
      return parts;
    });
    this.initialisedKeys = checkpoint === undefined ? [] : initialised;
  }

  /** Runs the encoder and the head: `{ logits [B, numLabels], hiddenStates?, attentions? }`. Dispose the outputs. */
  forward(inputs: EncoderInputs): SequenceClassifierOutputs {
    const caller = 'MPNetForSequenceClassification.forward';
    this.assertLive(caller);
    const encoder = this.mpnet.get('encoder');
    const encoded = encoderForward(caller, this.config, {
      embed: (ids) => this.mpnet.get('embeddings').forward(ids, undefined),
      layers: encoder.get('layer'),
      positionBias: (length) => mpnetPositionBias(encoder.get('relative_attention_bias'), length, this.config), // [1, H, T, T]
    }, inputs);
    return classifyEncoded(encoded, inputs, ({ lastHiddenState }) => this.classifier.forward(lastHiddenState)); // [B, T, E] -> [B, numLabels]
  }
}
