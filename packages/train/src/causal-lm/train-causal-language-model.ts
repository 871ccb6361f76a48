import { tidy, type Scalar } from '@tensorflow/tfjs-core';
import { causalLMStateFromStored, DecoderForCausalLM, type CausalLM } from '@attnkit/models';
import { Tokenizer } from '@attnkit/tokenizers';
import { InvalidArgumentError, checkObject, describeValue } from '@attnkit/errors';
import { CheckpointError } from '../checkpoint/checkpoint-error.js';
import { causalLMFolderFiles } from '../checkpoint/causal-lm-folder-files.js';
import { openTrainingCheckpoint, writeTrainingCheckpoint } from '../checkpoint/training-checkpoint.js';
import { checkFloatModel } from '../trainer/check-float-model.js';
import { dataFingerprint } from '../trainer/data-fingerprint.js';
import { noDecayOf, runSchedule } from '../trainer/run-schedule.js';
import { runTrainingLoop, type TrainingHistory } from '../trainer/training-loop.js';
import { resolveTrainingOptions, type TrainSentenceEncoderOptions } from '../trainer/training-options.js';
import { causalLanguageModelLoss } from './causal-language-model-loss.js';

/** The loss name a causal-LM run records in its trainer state. */
const LOSS = 'causal-language-model';

/** Options of {@link trainCausalLanguageModel}: the sentence trainer's schedule, checkpoint and resume options. */
export interface TrainCausalLanguageModelOptions extends Omit<TrainSentenceEncoderOptions, 'loss' | 'scale' | 'evaluation'> {
  /** Runs `evaluate(model)` (model in eval mode) after every `every` steps and after the last. */
  readonly evaluation?: { readonly every: number; readonly evaluate: (model: CausalLM) => Promise<Record<string, number>> | Record<string, number> };
}

/**
 * Fine-tunes a causal language model (`loadCausalLM`: GPT-2, Llama, Mistral, Qwen2, Qwen3) on
 * `texts` with the next-token objective, as transformers' `Trainer` does with
 * `DataCollatorForLanguageModeling(mlm=False)`: each text tokenized once (truncated to
 * `maxSeqLength`, default the tokenizer's `model_max_length` and at most the model's positions),
 * batches right-padded, the labels the input ids, and {@link causalLanguageModelLoss} (labels
 * shifted inside, padding left out) minimised with AdamW (learning rate 5e-5 by default, weight
 * decay 0.01 but none for biases and norms), a linear warm-up and decay (no warm-up by default) and
 * gradients clipped to norm 1. A tied head (`tie_word_embeddings`) is trained once, as the embedding.
 *
 * The loop is `trainSentenceEncoder`'s and `trainMaskedLanguageModel`'s: length-bucketed batches in a
 * seeded order, seeded dropout (a resumed run takes the steps an uninterrupted one would), progress,
 * evaluations, checkpoints (`checkpoint-<step>/`: the causal-LM folder `saveCausalLMFolder` writes,
 * which `loadCausalLM` and transformers load, plus `trainer_state.json` and
 * `optimizer.safetensors`), `resume`, `signal`; no tensor is left behind. Checkpoints and `resume`:
 * Node only.
 *
 * @example
 * const model = await loadCausalLM('./SmolLM2-135M');
 * const tokenizer = await loadTokenizer('./SmolLM2-135M');
 * const history = await trainCausalLanguageModel(model, tokenizer, texts, { batchSize: 8, maxSteps: 100, maxSeqLength: 128 });
 * history.losses.at(-1); // the last step's loss
 */
export async function trainCausalLanguageModel(model: CausalLM, tokenizer: Tokenizer, texts: readonly string[], options: TrainCausalLanguageModelOptions = {}): Promise<TrainingHistory> {
  const caller = 'trainCausalLanguageModel';
  if (!(model instanceof DecoderForCausalLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a causal language model (loadCausalLM)', received: describeValue(model) });
  checkFloatModel([model], caller, 'train');
  if (!(tokenizer instanceof Tokenizer)) throw new InvalidArgumentError({ caller, argument: 'tokenizer', expected: 'a Tokenizer (loadTokenizer)', received: describeValue(tokenizer) });
  if (!Array.isArray(texts) || texts.length === 0) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a non-empty list of strings', received: describeValue(texts) });
  const bad = texts.findIndex((text) => typeof text !== 'string' || text.trim() === '');
  if (bad >= 0) throw new InvalidArgumentError({ caller, argument: `texts[${bad}]`, expected: 'a non-empty string', received: describeValue(texts[bad]) });
  checkObject(options, { caller, argument: 'options', expected: 'an options object' });
  const { evaluation, learningRate, ...shared } = options;
  const maxLength = Math.min(tokenizer.modelMaxLength, model.config.maxPositionEmbeddings);
  // the sentence trainer's options, checked the same way ('cosine-similarity' only unlocks batchSize 1: there is no sentence loss here)
  const o = resolveTrainingOptions({ ...shared, loss: 'cosine-similarity', learningRate: learningRate === undefined ? 5e-5 : learningRate, ...(shared.warmupRatio === undefined && shared.warmupSteps === undefined ? { warmupSteps: 0 } : {}) }, maxLength, caller);
  if (evaluation !== undefined) resolveTrainingOptions({ loss: 'cosine-similarity', evaluation: evaluation as never }, maxLength, caller);

  // tokenize once: every text's ids, truncated; batches are padded when they are cut
  const encoded = texts.map((text) => tokenizer.encode([text], { maxLength: o.maxSeqLength, truncation: true, padding: false }).inputIds[0]!);
  const short = encoded.findIndex((ids) => ids.length < 2);
  if (short >= 0) throw new InvalidArgumentError({ caller, argument: `texts[${short}]`, expected: 'a text of at least two tokens (the first predicts the second)', received: `${describeValue(texts[short])} (${encoded[short]!.length} token)` });
  const outside = encoded.findIndex((ids) => ids.some((id) => id >= model.config.vocabSize));
  if (outside >= 0) throw new InvalidArgumentError({ caller, argument: 'tokenizer', expected: `ids below the model's vocab_size ${model.config.vocabSize} (the model's own tokenizer)`, received: `id ${Math.max(...encoded[outside]!)} for texts[${outside}]` });
  const padId = model.config.padTokenId ?? model.config.eosTokenIds[0] ?? 0; // never read: the mask leaves padding out
  const lengths = encoded.map((ids) => ids.length);
  const parameters = model.namedParameters().filter(([, p]) => p.trainable);
  const { checkpoint, resume } = o;

  return runTrainingLoop({
    caller,
    parameters,
    noDecay: noDecayOf([['', model]]),
    ...runSchedule(o, lengths),
    batchLoss: (indices): Scalar => {
      const longest = Math.max(...indices.map((i) => lengths[i]!));
      const inputIds = indices.map((i) => [...encoded[i]!, ...Array<number>(longest - lengths[i]!).fill(padId)]); // [B, T], right-padded
      const attentionMask = indices.map((i) => Array.from({ length: longest }, (_, t) => (t < lengths[i]! ? 1 : 0))); // [B, T]
      return tidy(() => causalLanguageModelLoss(model.forward({ inputIds, attentionMask }).logits, inputIds, { attentionMask }));
    },
    setMode: (training) => model.train(training),
    identity: { loss: `${LOSS} (at most ${o.maxSeqLength} tokens)`, examples: texts.length, dataFingerprint: dataFingerprint({ texts: texts.map((text) => [text]), labels: [] }), batchSize: o.batchSize },
    ...(checkpoint === undefined ? {} : { save: async (state, optimizer) => writeTrainingCheckpoint(checkpoint.folder, await causalLMFolderFiles(model, checkpoint.source, caller), optimizer, state, checkpoint.keep, caller) }),
    ...(resume === undefined ? {} : {
      restore: async () => {
        const opened = await openTrainingCheckpoint(resume, caller);
        const weights = causalLMStateFromStored(model, await opened.weights('model.safetensors'));
        const missing = model.namedParameters().map(([name]) => name).filter((name) => !weights.has(name));
        if (missing.length > 0) throw new CheckpointError(caller, opened.folder, `${opened.folder}/model.safetensors is not this model's checkpoint: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''} missing.`);
        return { folder: opened.folder, state: opened.state, optimizer: opened.optimizer, loadWeights: () => model.loadStateDict(weights) };
      },
    }),
    ...(evaluation === undefined ? {} : { evaluation: { every: evaluation.every, evaluate: () => evaluation.evaluate(model) } }),
  });
}
