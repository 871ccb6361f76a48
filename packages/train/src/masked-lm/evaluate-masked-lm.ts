import { argMax, tidy } from '@tensorflow/tfjs-core';
import { BertForMaskedLM } from '@attnkit/models';
import { Tokenizer } from '@attnkit/tokenizers';
import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { seededRandom } from '../trainer/seeded-random.js';
import { maskTokens } from './mask-tokens.js';
import { maskedLanguageModelLoss } from './masked-language-model-loss.js';

/** Options of {@link evaluateMaskedLM}. */
export interface EvaluateMaskedLMOptions {
  /** Texts per forward pass (default 32). */
  readonly batchSize?: number;
  /** Fixes which tokens are masked (default 0): the same seed masks the same tokens, so models compare on one test. */
  readonly seed?: number;
  /** Longest input in tokens (default: the tokenizer's and model's limit). */
  readonly maxSeqLength?: number;
  /** Default `'[MASK]'`. */
  readonly maskToken?: string;
}

/** What {@link evaluateMaskedLM} measures over the masked tokens of held-out texts. */
export interface MaskedLMEvaluation {
  /** Mean cross-entropy of the masked tokens (nats). */
  readonly loss: number;
  /** `exp(loss)`. */
  readonly perplexity: number;
  /** Share of masked tokens whose most likely prediction is the original token. */
  readonly accuracy: number;
  /** Masked tokens predicted. */
  readonly tokens: number;
}

/**
 * Masked-language-model metrics of `model` on `texts`: the texts are masked as in training
 * (`maskTokens`, 15 %, 80/10/10) with a fixed `seed`, and the masked tokens' mean cross-entropy,
 * perplexity and top-1 accuracy are measured in eval mode. Use held-out texts; the same seed gives
 * two models the same test.
 *
 * @example
 * const before = await evaluateMaskedLM(mlm, tokenizer, heldOutTexts); // { loss, perplexity, accuracy, tokens }
 */
export async function evaluateMaskedLM(model: BertForMaskedLM, tokenizer: Tokenizer, texts: readonly string[], options: EvaluateMaskedLMOptions = {}): Promise<MaskedLMEvaluation> {
  const caller = 'evaluateMaskedLM';
  if (!(model instanceof BertForMaskedLM)) throw new InvalidArgumentError({ caller, argument: 'model', expected: 'a BertForMaskedLM', received: describeValue(model) });
  if (!(tokenizer instanceof Tokenizer)) throw new InvalidArgumentError({ caller, argument: 'tokenizer', expected: 'a Tokenizer (loadTokenizer)', received: describeValue(tokenizer) });
  if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== 'string')) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a non-empty list of strings', received: describeValue(texts) });
  checkObject(options, { caller, argument: 'options', expected: 'an object { batchSize?, seed?, maxSeqLength?, maskToken? }' });
  checkOptionKeys(options, ['batchSize', 'seed', 'maxSeqLength', 'maskToken'], caller);
  const limit = Math.min(tokenizer.modelMaxLength, model.config.maxSequenceLength);
  const batchSize = checkInteger(options.batchSize === undefined ? 32 : options.batchSize, { caller, argument: 'batchSize', min: 1 });
  const seed = checkInteger(options.seed === undefined ? 0 : options.seed, { caller, argument: 'seed', min: 0, max: 2 ** 32 - 1 });
  const maxLength = checkInteger(options.maxSeqLength === undefined ? limit : options.maxSeqLength, { caller, argument: 'maxSeqLength', min: 2, max: limit });
  const maskToken = options.maskToken === undefined ? '[MASK]' : options.maskToken; // null is no token: an error, as for every option
  if (typeof maskToken !== 'string') throw new InvalidArgumentError({ caller, argument: 'maskToken', expected: 'a token of the tokenizer\'s vocabulary (a string)', received: describeValue(maskToken) });
  const maskTokenId = tokenizer.tokenToId(maskToken);
  if (maskTokenId === undefined) throw new InvalidArgumentError({ caller, argument: 'maskToken', expected: 'a token of the tokenizer\'s vocabulary', received: JSON.stringify(maskToken) });
  const special = new Map<number, boolean>();
  const isSpecial = (id: number): boolean => {
    let s = special.get(id);
    if (s === undefined) special.set(id, (s = tokenizer.isSpecialToken(tokenizer.idToToken(id) ?? '')));
    return s;
  };
  const wasTraining = model.training;
  model.eval();
  let [lossSum, correct, tokens] = [0, 0, 0];
  try {
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = tokenizer.encode(texts.slice(start, start + batchSize), { maxLength, truncation: true });
      const masked = maskTokens(batch.inputIds, batch.attentionMask, { vocabSize: model.config.vocabSize, maskTokenId, isSpecial, random: seededRandom(seed, start) });
      if (masked.positions.length === 0) continue;
      const [loss, predicted] = tidy(() => {
        const { logits } = model.forward({ inputIds: masked.inputIds, attentionMask: batch.attentionMask, tokenTypeIds: batch.tokenTypeIds }, { positions: masked.positions }); // [N, V]
        return [maskedLanguageModelLoss(logits, masked.targets), argMax(logits, -1)] as const;
      });
      const [lossValue, ids] = [(await loss.data())[0]!, await predicted.data()];
      loss.dispose();
      predicted.dispose();
      lossSum += lossValue * masked.targets.length;
      masked.targets.forEach((target, i) => (correct += ids[i] === target ? 1 : 0));
      tokens += masked.targets.length;
    }
  } finally {
    model.train(wasTraining);
  }
  const loss = tokens === 0 ? Number.NaN : lossSum / tokens;
  return { loss, perplexity: Math.exp(loss), accuracy: tokens === 0 ? Number.NaN : correct / tokens, tokens };
}
