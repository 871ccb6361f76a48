import { checkBoolean, checkInteger, checkObject } from '@attnkit/errors';
import { describeSource, ModelFiles, ModelLoadError, type ModelSource } from '@attnkit/hub';
import type { StateDictSource, TensorData } from '@attnkit/nn';
import { BertForSequenceClassification, BERT_CLASSIFIER_KEYS } from '../bert/bert-for-sequence-classification.js';
import { DistilBertForSequenceClassification, DISTILBERT_CLASSIFIER_KEYS } from '../distilbert/distilbert-for-sequence-classification.js';
import { ElectraForSequenceClassification } from '../electra/electra-for-sequence-classification.js';
import { FAMILY_PREFIX } from '../encoder/checkpoint-keys.js';
import type { ModelType } from '../encoder/encoder-config.js';
import { loadEncoderFolder, type LoadEncoderOptions } from '../load/load-encoder.js';
import type { ModernBertConfig } from '../modernbert/modernbert-config.js';
import { ModernBertForSequenceClassification, modernBertClassifierKeys } from '../modernbert/modernbert-for-sequence-classification.js';
import { MPNetForSequenceClassification } from '../mpnet/mpnet-for-sequence-classification.js';
import { RobertaForSequenceClassification, ROBERTA_CLASSIFIER_KEYS } from '../roberta/roberta-for-sequence-classification.js';
import { RoFormerForSequenceClassification } from '../roformer/roformer-for-sequence-classification.js';
import { parseSequenceClassificationConfig, type SequenceClassificationConfig } from './classification-config.js';
import type { SequenceClassifier, SequenceClassifierBuildOptions } from './sequence-classifier.js';

/** Options of {@link loadSequenceClassifier}: `loadEncoder`'s, and what to do with a folder that has no head. */
export interface LoadSequenceClassifierOptions extends LoadEncoderOptions {
  /**
   * A folder without a classification head (a base model, a sentence-embedding folder) gets a new
   * one — `config.json`'s `num_labels` (default 2) outputs, initialised as transformers does — with
   * a notice; without this option such a folder is a `ModelLoadError`. A folder with a head keeps it.
   */
  readonly newHead?: boolean;
  /** Seed of a new head's initialisation. */
  readonly seed?: number;
}

type ClassifierClass = new (config: SequenceClassificationConfig, checkpoint?: StateDictSource, options?: SequenceClassifierBuildOptions) => SequenceClassifier;

/** Each family's classifier, its head keys (ModernBERT's depend on the config's biases), and whether its encoder keeps a pooler (BERT's head reads it). */
const FAMILIES: Record<ModelType, { readonly build: ClassifierClass; readonly head: readonly string[] | ((config: SequenceClassificationConfig) => readonly string[]); readonly pooler: boolean }> = {
  bert: { build: BertForSequenceClassification, head: BERT_CLASSIFIER_KEYS, pooler: true },
  roberta: { build: RobertaForSequenceClassification, head: ROBERTA_CLASSIFIER_KEYS, pooler: false },
  'xlm-roberta': { build: RobertaForSequenceClassification, head: ROBERTA_CLASSIFIER_KEYS, pooler: false },
  distilbert: { build: DistilBertForSequenceClassification, head: DISTILBERT_CLASSIFIER_KEYS, pooler: false },
  electra: { build: ElectraForSequenceClassification, head: ROBERTA_CLASSIFIER_KEYS, pooler: false },
  mpnet: { build: MPNetForSequenceClassification, head: ROBERTA_CLASSIFIER_KEYS, pooler: false },
  roformer: { build: RoFormerForSequenceClassification, head: ROBERTA_CLASSIFIER_KEYS, pooler: false },
  modernbert: { build: ModernBertForSequenceClassification, head: (config) => modernBertClassifierKeys(config as SequenceClassificationConfig & ModernBertConfig), pooler: false },
};

const POOLER_KEYS = ['pooler.dense.weight', 'pooler.dense.bias'];

/**
 * Loads a Hugging Face sequence-classification folder (`BertForSequenceClassification`,
 * `RobertaForSequenceClassification`, `XLMRobertaForSequenceClassification`,
 * `DistilBertForSequenceClassification`, `ElectraForSequenceClassification`,
 * `MPNetForSequenceClassification`, `RoFormerForSequenceClassification`, `ModernBertForSequenceClassification`, as transformers 5.17 builds them) as the class of its
 * `model_type`, with `loadEncoder`'s sources and options (`hub`, `quantize: 'int8'`: the encoder's
 * `Linear` layers become `Int8Linear`, the head stays float32). The tensors load strictly by
 * transformers' keys (`bert.*` and `classifier.*`, `roberta.*` and `classifier.dense.*` /
 * `classifier.out_proj.*`, `distilbert.*` with `pre_classifier.*` and `classifier.*`, `model.*` with `head.*` and
 * `classifier.*` for ModernBERT, ...); other
 * heads (`cls.*`, `lm_head.*`) and a pooler the classifier does not read (RoBERTa's, MPNet's) are
 * skipped with a notice, as transformers skips them. A folder without a head is a
 * `ModelLoadError` unless `newHead: true`; part of a head, or a head of another width than
 * `config.json`'s labels, is a `ModelLoadError` naming the tensors.
 *
 * @example
 * const model = await loadSequenceClassifier('./ms-marco-MiniLM-L6-v2');
 * const { logits } = model.forward(tokenizer.encode([['How many people live in Berlin?', 'Berlin has 3.5 million people.']])); // [1, 1]
 * model.config.id2label; // ['LABEL_0']
 */
export async function loadSequenceClassifier(source: ModelSource | ModelFiles, options: LoadSequenceClassifierOptions = {}): Promise<SequenceClassifier> {
  const caller = 'loadSequenceClassifier';
  const { newHead, seed, ...load } = checkObject(options, { caller, argument: 'options', expected: 'an object of load options' });
  checkBoolean(newHead, { caller, argument: 'newHead', fallback: false });
  if (seed !== undefined) checkInteger(seed, { caller, argument: 'seed' });
  return loadEncoderFolder(source, load, {
    caller,
    parseConfig: (json) => parseSequenceClassificationConfig(json, caller),
    usesHeads: true,
    floatHead: true,
    encoderPath: (config) => FAMILY_PREFIX[config.modelType],
    build: (config, { checkpoint, heads }) => {
      const { build, head, pooler } = FAMILIES[config.modelType];
      const family = { build, pooler, head: typeof head === 'function' ? head(config) : head };
      const prefix = FAMILY_PREFIX[config.modelType];
      const where = source instanceof ModelFiles ? source.where : describeSource(source);
      const fail = (message: string): never => {
        throw new ModelLoadError('model.safetensors', `model.safetensors in ${where} ${message}`, undefined, caller);
      };
      const state = new Map<string, TensorData>();
      const skipped: string[] = [];
      for (const [key, value] of checkpoint) {
        if (!family.pooler && POOLER_KEYS.includes(key)) skipped.push(`${prefix}${key}`); // transformers' RobertaModel(add_pooling_layer=False) ignores it too
        else state.set(`${prefix}${key}`, value);
      }
      for (const [name, value] of heads) {
        if (family.head.includes(name)) state.set(name, value);
        else skipped.push(name);
      }
      const stored = family.head.filter((key) => state.has(key));
      if (stored.length > 0 && stored.length < family.head.length) fail(`has part of a classification head: ${family.head.filter((key) => !state.has(key)).join(', ')} missing. Save the whole head, or none (with newHead: true a new one is then initialised).`);
      if (stored.length === 0 && newHead !== true) fail(`has no classification head (${family.head.join(', ')}): a base model or a sentence-embedding folder, not a ${family.build.name}. Load it with loadEncoder, or pass newHead: true for a new head of ${config.numLabels} labels, initialised as transformers does (it means nothing until trained).`);
      if (family.pooler && newHead !== true && !state.has(`${prefix}pooler.dense.weight`) && !state.has(`${prefix}pooler.dense.bias`)) fail(`has no pooler (${prefix}pooler.dense.*), which ${family.build.name}'s head reads; pass newHead: true to initialise it with the head.`);
      if (skipped.length > 0) options.onNotice?.(`${caller}: skipped ${skipped.length} tensors the ${family.build.name} does not use (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', ...' : ''}), as transformers does.`);
      const model = new family.build(config, state, { ...(seed === undefined ? {} : { seed }), newHead: newHead === true });
      if (model.initialisedKeys.length > 0) options.onNotice?.(`${caller}: a new head (${model.initialisedKeys.join(', ')}) is initialised, as transformers does: its logits mean nothing until trained.`);
      return model;
    },
  });
}
