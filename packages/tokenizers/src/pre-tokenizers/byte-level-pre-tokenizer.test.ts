import { describe, expect, it } from 'vitest';
import { byteLevelPreTokenizer } from './byte-level-pre-tokenizer.js';

describe('byteLevelPreTokenizer', () => {
  it("splits GPT-2's way and writes bytes (tokenizers 0.23 ByteLevel(add_prefix_space=True), \\s as White_Space)", () => {
    const pieces = byteLevelPreTokenizer(true, true)([{ text: "Hi there, it's 2024!\u3000\u3000x", fromStart: 1 }]).map((p) => p.text);
    expect(pieces).toEqual(['ĠHi', 'Ġthere', ',', 'Ġit', "'s", 'Ġ2024', '!', 'ãĢĢ', 'ãĢĢ', 'x']);
  });

  it('counts the prefix space and the bytes of the first character as aligned with the text start', () => {
    expect(byteLevelPreTokenizer(true, false)([{ text: 'é', fromStart: 1 }])).toEqual([{ text: 'ĠÃ©', fromStart: 3 }]);
  });
});
