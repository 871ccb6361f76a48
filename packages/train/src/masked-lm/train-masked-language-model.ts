import { tidy, type Scalar, type Tensor } from '@tensorflow/tfjs-core';
import { BertForMaskedLM } from '@attnkit/models';
import { Tokenizer } from '@attnkit/tokenizers';
import { InvalidArgumentError, checkObject, describeValue } from '@attnkit/errors';
import type { TensorData } from '@attnkit/nn';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { maskedLMFolderFiles } from '../checkpoint/masked-lm-folder-files.js';
import { openTrainingCheckpoint, writeTrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import { checkFloatModel } from '../trainer/check-float-model.js';
import { dataFingerprint } from '../trainer/data-fingerprint.js';
import { noDecayOf, runSchedule } from '../trainer/run-schedule.js';
import { seededRandom } from '../trainer/seeded-random.js';
import { runTrainingLoop, type TrainingHistory } from '../trainer/training-loop.js';
import { resolveTrainingOptions, type TrainSentenceEncoderOptions } from '../trainer/training-options.js';
import { maskTokens } from './mask-tokens.js';
import { maskedLanguageModelLoss } from './masked-language-model-loss.js';

/** The loss name a masked-LM run records in its trainer state. */
const LOSS = 'masked-language-model';

/** Options of {@link trainMaskedLanguageModel}. */
export interface TrainMaskedLanguageModelOptions extends Omit<TrainSentenceEncoderOptions, 'loss' | 'scale' | 'evaluation'> {
  /** The chance of selecting each token for prediction (default 0.15). */
  readonly maskProbability?: number;
  /** The mask token (default `'[MASK]'`). */
  readonly maskToken?: string;
  /** Runs `evaluate(model)` (model in eval mode) after every `every` steps and after the last. */
  readonly evaluation?: { readonly every: number; readonly evaluate: (model: BertForMaskedLM) => Promise<Record<string, number>> | Record<string, number> };
}

/**
 * Pre-trains (or continues pre-training) a BERT encoder with the masked-language-model objective,
 * as transformers' `run_mlm` does with its defaults: each batch of `texts` (tokenized, truncated to
 * `maxSeqLength`) is corrupted by `maskTokens` (15 % of the tokens selected; of those 80 % `[MASK]`,
 * 10 % a random id, 10 % kept; special tokens and padding never), the model predicts the selected
 * tokens, and {@link maskedLanguageModelLoss} is minimised with AdamW (learning rate 5e-5 by
 * default, weight decay 0.01 but none for biases and LayerNorms), a linear warm-up and decay (no
 * warm-up by default) and gradients clipped to norm 1. The head runs on the selected positions only.
 *
 * The rest is `trainSentenceEncoder`'s loop: length-bucketed batches in a seeded order, seeded
 * dropout and masking (a run is reproducible, and a resumed run takes the steps an uninterrupted
 * one would), progress, evaluations, checkpoints (`checkpoint-<step>/`: the `BertForMaskedLM`
 * folder `saveMaskedLMFolder` writes, plus `trainer_state.json` and `optimizer.safetensors`),
 * `resume`, `signal`; no tensor is left behind. The pooler is not trained (the objective does not
 * reach it). Checkpoints and `resume`: Node only.
 *
 * @example
 * const mlm = await loadBertForMaskedLM('./attnkit-tiny-bert', { seed: 1 });
 * const tokenizer = await loadTokenizer('./attnkit-tiny-bert');
 * const history = await trainMaskedLanguageModel(mlm, tokenizer, texts, { batchSize: 32, maxSteps: 1000, maxSeqLength: 64 });
 * history.losses.at(-1); // the last step's loss
 */
export async function trainMaskedLanguageModel(model: BertForMaskedLM, tokenizer: Tokenizer, texts: readonly string[], options: TrainMaskedLanguageModelOptions = {}): Promise<TrainingHistory> {
  const caller = 'trainMaskedLanguageModel';
  if (!(model instanceof BertForMaskedLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a BertForMaskedLM (loadBertForMaskedLM or new BertForMaskedLM(config))', received: describeValue(model) });
  checkFloatModel([model], caller, 'train');
  if (!(tokenizer instanceof Tokenizer)) throw new InvalidArgumentError({ caller, argument: 'tokenizer', expected: 'a Tokenizer (loadTokenizer)', received: describeValue(tokenizer) });
  if (!Array.isArray(texts) || texts.length === 0) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a non-empty list of strings', received: describeValue(texts) });
  const bad = texts.findIndex((text) => typeof text !== 'string' || text.trim() === '');
  if (bad >= 0) throw new InvalidArgumentError({ caller, argument: `texts[${bad}]`, expected: 'a non-empty string', received: describeValue(texts[bad]) });
  checkObject(options, { caller, argument: 'options', expected: 'an options object' });
  const { maskProbability, maskToken = '[MASK]', evaluation, learningRate, ...shared } = options;
  if (typeof maskToken !== 'string') throw new InvalidArgumentError({ caller, argument: 'maskToken', expected: 'a token string such as "[MASK]"', received: describeValue(maskToken) });
  const maskTokenId = tokenizer.tokenToId(maskToken);
  if (maskTokenId === undefined || maskTokenId >= model.config.vocabSize) throw new InvalidArgumentError({ caller, argument: 'maskToken', expected: `a token of the tokenizer's vocabulary with an id below the model's ${model.config.vocabSize}`, received: `${JSON.stringify(maskToken)} (${maskTokenId === undefined ? 'not in the vocabulary' : `id ${maskTokenId}`})`, hint: 'Give the mask token of this tokenizer, e.g. maskToken: "<mask>" for RoBERTa-style vocabularies.' });
  // the sentence trainer's options, checked the same way (a masked-LM run has no sentence loss: 'cosine-similarity' only unlocks batchSize 1)
  const maxLength = Math.min(tokenizer.modelMaxLength, model.config.maxSequenceLength);
  const o = resolveTrainingOptions({ ...shared, loss: 'cosine-similarity', learningRate: learningRate === undefined ? 5e-5 : learningRate, ...(shared.warmupRatio === undefined && shared.warmupSteps === undefined ? { warmupSteps: 0 } : {}) }, maxLength, caller);
  if (evaluation !== undefined) resolveTrainingOptions({ loss: 'cosine-similarity', evaluation: evaluation as never }, maxLength, caller); // the same checks as the sentence trainer's
  if (maskProbability !== undefined && (typeof maskProbability !== 'number' || !(maskProbability > 0 && maskProbability <= 1))) throw new InvalidArgumentError({ caller, argument: 'maskProbability', expected: 'a number in (0, 1], e.g. 0.15', received: describeValue(maskProbability) });

  // tokenize once: every text's ids, truncated; batches are padded when they are cut
  const encoded = texts.map((text) => tokenizer.encode([text], { maxLength: o.maxSeqLength, truncation: true }).inputIds[0]!);
  const padId = model.config.padTokenId;
  const specialIds = new Map<number, boolean>();
  const isSpecial = (id: number): boolean => {
    let special = specialIds.get(id);
    if (special === undefined) specialIds.set(id, (special = tokenizer.isSpecialToken(tokenizer.idToToken(id) ?? '')));
    return special;
  };
  const unmaskable = encoded.findIndex((ids) => ids.every((id) => id === padId || isSpecial(id)));
  if (unmaskable >= 0) throw new InvalidArgumentError({ caller, argument: `texts[${unmaskable}]`, expected: 'a text with at least one token to predict (not only special or unknown tokens)', received: describeValue(texts[unmaskable]), hint: 'Remove texts the tokenizer turns into special tokens only; a batch of them would have nothing to learn from.' });
  const lengths = encoded.map((ids) => ids.length);
  const parameters = model.maskedLMParameters().filter(([, p]) => p.trainable);
  const { checkpoint, resume } = o;

  return runTrainingLoop({
    caller,
    parameters,
    noDecay: noDecayOf([['', model]]),
    ...runSchedule(o, lengths),
    batchLoss: (indices, step): Scalar => {
      const longest = Math.max(...indices.map((i) => lengths[i]!));
      const inputIds = indices.map((i) => [...encoded[i]!, ...Array<number>(longest - lengths[i]!).fill(padId)]); // [B, T], padded
      const attentionMask = indices.map((i) => Array.from({ length: longest }, (_, t) => (t < lengths[i]! ? 1 : 0)));
      const masked = maskTokens(inputIds, attentionMask, { vocabSize: model.config.vocabSize, maskTokenId, isSpecial, random: seededRandom(o.seed, 0x6d61736b, step), ...(maskProbability === undefined ? {} : { probability: maskProbability }) }); // 'mask'
      return tidy(() => maskedLanguageModelLoss(model.forward({ inputIds: masked.inputIds, attentionMask }, { positions: masked.positions }).logits, masked.targets));
    },
    setMode: (training) => model.train(training),
    identity: { loss: `${LOSS} (${maskProbability ?? 0.15} of at most ${o.maxSeqLength} tokens, ${maskToken})`, examples: texts.length, dataFingerprint: dataFingerprint({ texts: texts.map((text) => [text]), labels: [] }), batchSize: o.batchSize },
    ...(checkpoint === undefined ? {} : { save: async (state, optimizer) => writeTrainingCheckpoint(checkpoint.folder, await maskedLMFolderFiles(model, checkpoint.source, caller), optimizer, state, checkpoint.keep, caller) }),
    ...(resume === undefined ? {} : {
      restore: async () => {
        const opened = await openTrainingCheckpoint(resume, caller);
        const weights = await opened.weights('model.safetensors');
        const expected = parameters.map(([name]) => name);
        const missing = expected.filter((name) => !weights.has(name));
        if (missing.length > 0) throw new CheckpointError(caller, opened.folder, `${opened.folder}/model.safetensors is not this model's checkpoint: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''} missing.`);
        const pooler = model.namedParameters().filter(([name]) => name.startsWith('bert.pooler.'));
        return { folder: opened.folder, state: opened.state, optimizer: opened.optimizer, loadWeights: () => model.loadStateDict(new Map<string, Tensor | TensorData>([...weights, ...pooler])) };
      },
    }),
    ...(evaluation === undefined ? {} : { evaluation: { every: evaluation.every, evaluate: () => evaluation.evaluate(model) } }),
  });
}
