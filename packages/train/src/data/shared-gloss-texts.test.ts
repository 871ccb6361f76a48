import { describe, expect, it } from 'vitest';
import { glossKey, sharedGlossTexts } from './shared-gloss-texts.js';
import type { WordnetSynset } from './wordnet-synset.js';
import { InvalidArgumentError } from '@attnkit/errors';

const synset = (id: string, definition: string, examples: string[] = []): WordnetSynset => ({ id, pos: 'n', lemmas: [id], definition, examples });

describe('sharedGlossTexts', () => {
  it('finds definitions and examples used by several synsets, compared by glossKey', () => {
    const shared = sharedGlossTexts([
      synset('n1', 'a family of bacteria', ['a shared example', 'a shared example']), // twice in one synset: not shared
      synset('n2', 'A family of  bacteria '),
      synset('n3', 'something else', ['a shared example']),
      synset('n4', 'a unique gloss'),
    ]);
    expect([...shared]).toEqual([['a family of bacteria', ['n1', 'n2']], ['a shared example', ['n1', 'n3']]]);
    expect(glossKey('  Whiskey\tgalore ')).toBe('whiskey galore');
  });
});

describe('sharedGlossTexts input checks', () => {
  it('refuses a list with a hole or an item that is no synset, naming its index', () => {
    expect(() => sharedGlossTexts([synset('a', 'x'), , synset('b', 'x')] as WordnetSynset[])).toThrow("sharedGlossTexts: 'synsets[1]' must be a synset { id, definition, examples } (readWordnet); received undefined."); // eslint-disable-line no-sparse-arrays
    expect(() => sharedGlossTexts([{ id: 'a' }] as never)).toThrow(InvalidArgumentError);
  });
});
