import { describe, expect, it } from 'vitest';
import { TokenizerPipeline } from './tokenizer-pipeline.js';

const json = {
  added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }, { id: 1, content: '[CLS]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
  normalizer: { type: 'Lowercase' },
  pre_tokenizer: { type: 'WhitespaceSplit' },
  post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }], pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }], special_tokens: { '[CLS]': { id: '[CLS]', ids: [1], tokens: ['[CLS]'] } } },
  decoder: null,
  model: { type: 'WordLevel', vocab: { '[UNK]': 0, '[CLS]': 1, a: 2, b: 3 }, unk_token: '[UNK]' },
};

describe('TokenizerPipeline', () => {
  // tokenizers 0.23 Tokenizer.from_str(json): encode('A [CLS] c').ids == [1, 2, 1, 0]; decode([1, 2, 9, 3], skip_special_tokens=True) == 'a b'
  it('runs added tokens, normalizer, pre-tokenizer, model, post-processor and decoder in order', () => {
    const pipeline = new TokenizerPipeline(json, 'Tokenizer');
    const tokens = pipeline.encode('A [CLS] c');
    expect(pipeline.postProcess(tokens, null).ids).toEqual([1, 2, 1, 0]);
    expect(pipeline.decode([1, 2, 9, 3], true)).toBe('a b');
    expect(pipeline.decode([1, 2], false)).toBe('[CLS] a');
  });
});
