import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { createPostProcessor, type Encoding } from './create-post-processor.js';

const encoding = (ids: number[], typeId: number): Encoding => ({ ids, tokens: ids.map(String), typeIds: ids.map(() => typeId) });
/** Ids and type ids after the post-processor, for 'a b' ([3, 4]) and the pair 'a' | 'b a' ([3] | [4, 3]). */
function run(json: Record<string, unknown>): [number[], number[], number[], number[]] {
  const process = createPostProcessor(ComponentConfig.of(json, 'post_processor', 'Tokenizer'));
  const one = process([encoding([3, 4], 0)]);
  const two = process([encoding([3], 0), encoding([4, 3], 1)]);
  return [one.flatMap((e) => e.ids), one.flatMap((e) => e.typeIds), two.flatMap((e) => e.ids), two.flatMap((e) => e.typeIds)];
}

describe('createPostProcessor', () => {
  // references: tokenizers 0.23, a WordLevel tokenizer ({'[CLS]': 1, '[SEP]': 2, a: 3, b: 4}) with the processor: encode('a b'), encode('a', 'b a')
  it('adds BERT special tokens, type ids 0 then 1', () => {
    expect(run({ type: 'BertProcessing', sep: ['[SEP]', 2], cls: ['[CLS]', 1] })).toEqual([[1, 3, 4, 2], [0, 0, 0, 0], [1, 3, 2, 4, 3, 2], [0, 0, 0, 1, 1, 1]]);
  });

  it('adds RoBERTa special tokens (two separators between a pair), type ids all 0', () => {
    expect(run({ type: 'RobertaProcessing', sep: ['[SEP]', 2], cls: ['[CLS]', 1], trim_offsets: true, add_prefix_space: true })).toEqual([[1, 3, 4, 2], [0, 0, 0, 0], [1, 3, 2, 2, 4, 3, 2], [0, 0, 0, 0, 0, 0, 0]]);
  });

  it('leaves ids alone with ByteLevel, and runs a Sequence in turn', () => {
    const byteLevel = { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true };
    expect(run(byteLevel)).toEqual([[3, 4], [0, 0], [3, 4, 3], [0, 1, 1]]);
    expect(run({ type: 'Sequence', processors: [byteLevel, { type: 'BertProcessing', sep: ['[SEP]', 2], cls: ['[CLS]', 1] }] })).toEqual(run({ type: 'BertProcessing', sep: ['[SEP]', 2], cls: ['[CLS]', 1] }));
  });

  it('refuses an unknown type and a malformed [token, id] by name', () => {
    expect(thrown(() => run({ type: 'Unheard' }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => run({ type: 'BertProcessing', sep: ['[SEP]'], cls: ['[CLS]', 1] })).message).toBe(`Tokenizer: 'tokenizer.json post_processor.sep (BertProcessing)' must be a [token, id] pair; received ["[SEP]"].`);
  });
});
