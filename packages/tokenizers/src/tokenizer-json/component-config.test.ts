import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { ComponentConfig } from './component-config.js';

describe('ComponentConfig', () => {
  const config = ComponentConfig.of({ type: 'Metaspace', replacement: '▁', split: 'yes' }, 'pre_tokenizer.pretokenizers[1]', 'Tokenizer');

  it('reads fields with the defaults the library has', () => {
    expect([config.type, config.character('replacement'), config.oneOf('prepend_scheme', ['always', 'first', 'never'] as const, 'always'), config.nullableBoolean('add_prefix_space', null)]).toEqual(['Metaspace', '▁', 'always', null]);
  });

  it("names the field's place and the component's type when a field is missing or of the wrong kind", () => {
    const error = thrown(() => config.boolean('split'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(`Tokenizer: 'tokenizer.json pre_tokenizer.pretokenizers[1].split (Metaspace)' must be a boolean; received "yes".`);
    expect(thrown(() => ComponentConfig.of([], 'decoder', 'Tokenizer')).message).toBe(`Tokenizer: 'tokenizer.json decoder' must be an object with a "type"; received [].`);
    expect(thrown(() => ComponentConfig.of({ vocab: {} }, 'normalizer', 'Tokenizer')).message).toBe("Tokenizer: 'tokenizer.json normalizer.type' must be a string naming the component; received undefined.");
  });
});
