import { describe, expect, it } from 'vitest';
import { PageInputError } from './page-input-error.js';
import { readGenerationSettings } from './read-generation-settings.js';

const GOOD = { prompt: 'The cat sat', maxNewTokens: '16', temperature: '0', seed: '1' };

describe('readGenerationSettings', () => {
  it('reads the prompt (kept as typed), max new tokens, temperature and seed', () => {
    expect(readGenerationSettings({ prompt: 'The cat sat ', maxNewTokens: ' 16 ', temperature: '0.7', seed: '42' })).toEqual({ prompt: 'The cat sat ', maxNewTokens: 16, temperature: 0.7, seed: 42 });
    expect(readGenerationSettings({ ...GOOD, temperature: '0', seed: '4294967295' })).toMatchObject({ temperature: 0, seed: 4294967295 });
  });

  it.each(['', ' \n '])('a blank prompt (%j) names the box', (prompt) => {
    expect(() => readGenerationSettings({ ...GOOD, prompt })).toThrow(new PageInputError('Prompt: empty. Type the text the model continues.', { field: 'prompt' }));
  });

  it.each(['', '0', '1.5', '2049', 'many'])('max new tokens %j names the box and the range', (maxNewTokens) => {
    expect(() => readGenerationSettings({ ...GOOD, maxNewTokens })).toThrow(new PageInputError(`Max new tokens: "${maxNewTokens}" is not a whole number from 1 to 2048.`, { field: 'maxNewTokens' }));
  });

  it.each(['', '-0.5', '11', 'hot', 'Infinity'])('temperature %j names the box and gives an example', (temperature) => {
    expect(() => readGenerationSettings({ ...GOOD, temperature })).toThrow(`Temperature: "${temperature}" is not 0 (greedy) or a number above 0 and at most 10 (for example 0.7).`);
  });

  it.each(['', '-1', '0.5', '4294967296'])('seed %j names the box and the range', (seed) => {
    const error = (() => { try { readGenerationSettings({ ...GOOD, seed }); } catch (e) { return e as PageInputError; } })();
    expect(error).toBeInstanceOf(PageInputError);
    expect([error!.field, error!.message]).toEqual(['seed', `Seed: "${seed}" is not a whole number from 0 to 4294967295.`]);
  });
});
