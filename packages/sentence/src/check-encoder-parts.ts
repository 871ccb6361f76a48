import { describeValue, InvalidArgumentError } from '@attnkit/errors';

/**
 * Checks the parts a `SentenceEncoder` or `CrossEncoder` is built from, beyond being objects: a
 * tokenizer (`encode`, `tokenize`, `modelMaxLength`, as `loadTokenizer` gives) and a folder as its
 * reader gives it (`plain`, `transformerPath`; a sentence folder also `modules` and `prompts`).
 *
 * @example
 * checkEncoderParts('SentenceEncoder', tokenizer, folder, 'a SentenceFolder (readSentenceFolder)', true);
 */
export function checkEncoderParts(caller: string, tokenizer: unknown, folder: unknown, folderKind: string, sentenceFolder: boolean): void {
  const t = tokenizer as { encode?: unknown; tokenize?: unknown; modelMaxLength?: unknown };
  if (typeof t.encode !== 'function' || typeof t.tokenize !== 'function' || typeof t.modelMaxLength !== 'number') {
    throw new InvalidArgumentError({ caller, argument: 'tokenizer', expected: 'a Tokenizer (loadTokenizer)', received: describeValue(tokenizer) });
  }
  const f = folder as { plain?: unknown; transformerPath?: unknown; modules?: unknown; prompts?: unknown };
  if (typeof f.plain !== 'boolean' || typeof f.transformerPath !== 'string' || (sentenceFolder && (!Array.isArray(f.modules) || !(f.prompts instanceof Map)))) {
    throw new InvalidArgumentError({ caller, argument: 'folder', expected: folderKind, received: describeValue(folder) });
  }
}
