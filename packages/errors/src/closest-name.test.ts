import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

const OPTIONS = ['text', 'input', 'model', 'backend', 'prompt-name', 'normalize', 'output', 'help'];
const COMMANDS = ['encode', 'similarity', 'embed', 'join', 'bench', 'train', 'quantize', 'report'];

describe('closestName', () => {
  it.each([
    ['txt', OPTIONS, 'text'], // a letter left out
    ['texts', OPTIONS, 'text'], // one added
    ['bakcend', OPTIONS, 'backend'], // two letters swapped: one edit
    ['BACKEND', OPTIONS, 'backend'], // case is ignored
    ['normalise', OPTIONS, 'normalize'],
    ['prompt_name', OPTIONS, 'prompt-name'],
    ['hepl', OPTIONS, 'help'],
    ['embedd', COMMANDS, 'embed'],
    ['similarty', COMMANDS, 'similarity'],
    ['quantise', COMMANDS, 'quantize'],
  ] as const)('%j -> %j', (given, names, expected) => {
    expect(closestName(given, names)).toBe(expected);
  });

  it.each([
    ['fast', OPTIONS], // nothing close
    ['out', OPTIONS], // three edits from output: too far for a six-letter name
    ['x', ['h', 'help']], // one letter is never "close" to another
    ['lr', ['learning-rate', 'seed']],
    ['json', ['help']],
    ['', OPTIONS],
    ['a'.repeat(100_000), OPTIONS], // a huge argument is answered at once
  ] as const)('%j has no close name', (given, names) => {
    expect(closestName(given, names)).toBeUndefined();
  });

  it('prefers the nearer name, then the earlier one', () => {
    expect(closestName('batc', ['batch-size', 'batch'])).toBe('batch');
    expect(closestName('tex', ['text', 'texts'])).toBe('text');
    expect(closestName('tex', ['texts', 'text'])).toBe('text');
    expect(closestName('abc', ['abd', 'abe'])).toBe('abd');
  });

  it('refuses a name or a list that is not one, with a typed error', () => {
    expect(() => closestName(undefined as never, OPTIONS)).toThrow("closestName: 'given' must be the name given (a string); received undefined.");
    expect(() => closestName('txt', 'text' as never)).toThrow("closestName: 'names' must be a list of the names accepted (strings); received string 'text'.");
  });
});
