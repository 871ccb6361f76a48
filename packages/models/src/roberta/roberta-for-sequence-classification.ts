import { Module, ModuleDict, ModuleList, skipInitialization, type StateDictSource } from '@attnkit/nn';
import { BertLayer } from '../bert/bert-model.js';
import { ClassificationHead } from '../classification/classification-head.js';
import type { SequenceClassificationConfig } from '../classification/classification-config.js';
import { fillClassifier } from '../classification/fill-classifier.js';
import { classifyEncoded, type SequenceClassifier, type SequenceClassifierBuildOptions, type SequenceClassifierOutputs } from '../classification/sequence-classifier.js';
import { checkModelType } from '../encoder/check-model-type.js';
import type { EncoderInputs } from '../encoder/encoder.js';
import { encoderForward } from '../encoder/encoder-forward.js';
import { RobertaEmbeddings } from './roberta-model.js';
import { checkBuildOptions } from '../encoder/check-build-options.js';

/** The head keys of {@link RobertaForSequenceClassification} (and of ELECTRA's and MPNet's, which are built alike). */
export const ROBERTA_CLASSIFIER_KEYS = ['classifier.dense.weight', 'classifier.dense.bias', 'classifier.out_proj.weight', 'classifier.out_proj.bias'] as const;

/**
 * transformers' `RobertaForSequenceClassification` and `XLMRobertaForSequenceClassification`
 * (identical): the RoBERTa encoder without a pooler under `roberta` (`RobertaModel(config,
 * add_pooling_layer=False)`: `roberta.embeddings.*`, `roberta.encoder.layer.N.*`), then
 * `classifier`: dense → tanh → out_proj on the first token (`<s>`). The constructor's checkpoint is
 * the folder's tensors by those keys, loaded strictly (`newHead`: a checkpoint without
 * `classifier.*` gets one initialised); without a checkpoint, transformers' initialisation.
 *
 * `inputs` as `RobertaModel.forward` → `{ logits [B, numLabels] }`.
 *
 * @example
 * const model = await loadSequenceClassifier('./stsb-roberta-base'); // model_type "roberta" or "xlm-roberta"
 * const { logits } = model.forward(tokenizer.encode([['A man eats.', 'Someone eats food.']])); // [1, 1]
 */
export class RobertaForSequenceClassification extends Module implements SequenceClassifier {
  readonly config: SequenceClassificationConfig;
  /** The encoder without its pooler, in RobertaModel's tree. */
  readonly roberta: ModuleDict<{ embeddings: RobertaEmbeddings; encoder: ModuleDict<{ layer: ModuleList<BertLayer> }> }>;
  readonly classifier: ClassificationHead;
  readonly initialisedKeys: readonly string[];

  constructor(config: SequenceClassificationConfig, checkpoint?: StateDictSource, options: SequenceClassifierBuildOptions = {}) {
    super();
    checkBuildOptions(checkpoint, options, ['seed', 'newHead'], 'RobertaForSequenceClassification');
    this.config = checkModelType(config, ['roberta', 'xlm-roberta'], 'RobertaForSequenceClassification') as SequenceClassificationConfig;
    let initialised: string[] = [];
    [this.roberta, this.classifier] = this.guard(() => {
      const parts = skipInitialization(() => [
        this.registerModule('roberta', new ModuleDict({
          embeddings: new RobertaEmbeddings(config),
          encoder: new ModuleDict({ layer: new ModuleList(Array.from({ length: config.numHiddenLayers }, () => new BertLayer(config))) }),
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
    const caller = 'RobertaForSequenceClassification.forward';
    this.assertLive(caller);
    const encoded = encoderForward(caller, this.config, {
      embed: (ids, types) => this.roberta.get('embeddings').forward(ids, types),
      layers: this.roberta.get('encoder').get('layer'),
    }, inputs);
    return classifyEncoded(encoded, inputs, ({ lastHiddenState }) => this.classifier.forward(lastHiddenState)); // [B, T, E] -> [B, numLabels]
  }
}
