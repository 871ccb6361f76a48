import { PageInputError } from './page-input-error.js';

/** What the generation panel generates with, read from its boxes. */
export interface GenerationSettings {
  readonly prompt: string;
  readonly maxNewTokens: number;
  /** 0: greedy decoding; above 0: sampling at this temperature. */
  readonly temperature: number;
  readonly seed: number;
}

/** New tokens the panel asks for at most (the model's own bound, its `max_position_embeddings`, may be lower: it says so). */
export const MAX_NEW_TOKENS = 2048;

/**
 * Reads the generation panel's boxes as typed: the prompt (not blank; kept as typed), max new
 * tokens (a whole number from 1 to {@link MAX_NEW_TOKENS}), temperature (0 for greedy decoding, else
 * a number above 0 and at most 10) and seed (a whole number from 0 to 2³² − 1). A box that does not
 * read is a `PageInputError` naming it and quoting what it holds.
 *
 * @example
 * readGenerationSettings({ prompt: 'The cat sat', maxNewTokens: '16', temperature: '0', seed: '1' }); // greedy, 16 tokens
 */
export function readGenerationSettings(inputs: { readonly prompt: string; readonly maxNewTokens: string; readonly temperature: string; readonly seed: string }): GenerationSettings {
  if (inputs.prompt.trim() === '') throw new PageInputError('Prompt: empty. Type the text the model continues.', { field: 'prompt' });
  const maxNewTokens = Number(inputs.maxNewTokens.trim());
  if (inputs.maxNewTokens.trim() === '' || !Number.isInteger(maxNewTokens) || maxNewTokens < 1 || maxNewTokens > MAX_NEW_TOKENS) throw new PageInputError(`Max new tokens: "${inputs.maxNewTokens}" is not a whole number from 1 to ${MAX_NEW_TOKENS}.`, { field: 'maxNewTokens' });
  const temperature = Number(inputs.temperature.trim());
  if (inputs.temperature.trim() === '' || !Number.isFinite(temperature) || temperature < 0 || temperature > 10) throw new PageInputError(`Temperature: "${inputs.temperature}" is not 0 (greedy) or a number above 0 and at most 10 (for example 0.7).`, { field: 'temperature' });
  const seed = Number(inputs.seed.trim());
  if (inputs.seed.trim() === '' || !Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) throw new PageInputError(`Seed: "${inputs.seed}" is not a whole number from 0 to 4294967295.`, { field: 'seed' });
  return { prompt: inputs.prompt, maxNewTokens, temperature, seed };
}
