import { describe, expect, it } from 'vitest';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import type { Encoding } from './create-post-processor.js';
import { templateProcessing } from './template-processing.js';

const encoding = (ids: number[], typeId: number): Encoding => ({ ids, tokens: ids.map(String), typeIds: ids.map(() => typeId) });
const special = (id: string, typeId = 0) => ({ SpecialToken: { id, type_id: typeId } });
const sequence = (id: 'A' | 'B', typeId = 0) => ({ Sequence: { id, type_id: typeId } });

describe('templateProcessing', () => {
  it('follows the templates, a special token giving all its ids (tokenizers 0.23 TemplateProcessing(single="[CLS] $A:1", pair="$A [X] $B:1 [X]:2", [X] = ids [2, 1]))', () => {
    const process = templateProcessing(
      ComponentConfig.of({ type: 'TemplateProcessing', single: [special('[CLS]'), sequence('A', 1)], pair: [sequence('A'), special('[X]'), sequence('B', 1), special('[X]', 2)], special_tokens: { '[CLS]': { id: '[CLS]', ids: [1], tokens: ['[CLS]'] }, '[X]': { id: '[X]', ids: [2, 1], tokens: ['[SEP]', '[CLS]'] } } }, 'post_processor', 'Tokenizer'),
    );
    const one = process([encoding([3, 4], 0)]);
    const two = process([encoding([3], 0), encoding([4, 3], 1)]);
    expect([one.flatMap((e) => e.ids), one.flatMap((e) => e.typeIds)]).toEqual([[1, 3, 4], [0, 1, 1]]);
    expect([two.flatMap((e) => e.ids), two.flatMap((e) => e.typeIds)]).toEqual([[3, 2, 1, 4, 3, 2, 1], [0, 0, 0, 1, 1, 2, 2]]);
  });

  it('refuses a special token the templates name but special_tokens lacks (the library panics when encoding)', () => {
    const config = ComponentConfig.of({ type: 'TemplateProcessing', single: [special('[CLS]'), sequence('A')], pair: [sequence('A'), sequence('B', 1)], special_tokens: {} }, 'post_processor', 'Tokenizer');
    expect(thrown(() => templateProcessing(config)).message).toBe(`Tokenizer: 'tokenizer.json post_processor.single[0] (TemplateProcessing)' must be a special token listed in special_tokens (none); received "[CLS]".`);
  });
});
