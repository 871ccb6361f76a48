import { InvalidArgumentError } from '@attnkit/errors';
import type { GeneratedText, GenerateInput, GenerateOptions, GenerationResult } from './generate-options.js';
import { generationSteps, type GenerationModel } from './generation-steps.js';

/**
 * Generates new tokens for a prompt or a batch of prompts (see `generationSteps`) and resolves with
 * them, their text (with a tokenizer) and why each row stopped. `onToken` hears each token as it comes.
 *
 * @example
 * const { texts } = await generate(model, 'Once upon a time', { tokenizer, maxNewTokens: 32 }, 'LlamaForCausalLM.generate');
 */
export async function generate(model: GenerationModel, input: GenerateInput, options: GenerateOptions, caller: string): Promise<GenerationResult> {
  const steps = generationSteps(model, input, options, caller);
  for (;;) {
    const { value, done } = await steps.next();
    if (done === true) return value;
  }
}

/**
 * Generation as an async iterator of text pieces `{ row, text }`, each valid UTF-8 (a character split
 * over byte-level pieces comes once complete); it needs `options.tokenizer`. Breaking out of the loop
 * stops generation and frees its KV cache. The iterator's return value is the `GenerationResult`.
 *
 * @example
 * for await (const { text } of stream(model, 'Once upon a time', { tokenizer }, 'LlamaForCausalLM.stream')) process.stdout.write(text);
 */
export function stream(model: GenerationModel, input: GenerateInput, options: GenerateOptions, caller: string): AsyncGenerator<GeneratedText, GenerationResult> {
  if (typeof options !== 'object' || options === null || options.tokenizer === undefined) {
    throw new InvalidArgumentError({ caller, argument: 'options.tokenizer', expected: 'a tokenizer (stream yields text; loadTokenizer of @attnkit/tokenizers)', received: 'undefined', hint: 'For token ids as they come, use generate with onToken.' });
  }
  return generationSteps(model, input, options, caller);
}
