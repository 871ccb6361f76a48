import { InvalidArgumentError, describeValue } from '@attnkit/errors';
import type { WordnetSynset } from './wordnet-synset.js';

/** How two gloss texts are compared for sameness: trimmed, runs of white space made one space, lower-cased. */
export function glossKey(text: string): string {
  if (typeof text !== 'string') throw new InvalidArgumentError({ caller: 'glossKey', argument: 'text', expected: 'a gloss text (a string)', received: describeValue(text) });
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The gloss texts (definitions and examples, compared by {@link glossKey}) that more than one
 * synset uses, each with the ids of those synsets in input order. WordNet 3.1 repeats some
 * definitions across senses (`'a person who ...'`) and many examples; such a text in a held-out
 * synset would also be seen in training.
 *
 * @example
 * sharedGlossTexts(synsets).get('(of a bird) having no feathers'); // ['a00144010', 'a00144342'] (for instance)
 */
export function sharedGlossTexts(synsets: readonly WordnetSynset[]): Map<string, string[]> {
  if (!Array.isArray(synsets)) throw new InvalidArgumentError({ caller: 'sharedGlossTexts', argument: 'synsets', expected: 'a list of synsets (readWordnet)', received: describeValue(synsets) });
  const users = new Map<string, string[]>();
  Array.from(synsets as unknown[]).forEach((synset, i) => { // Array.from reads a hole as undefined
    const s = synset as Partial<WordnetSynset> | null | undefined;
    if (typeof s !== 'object' || s === null || typeof s.id !== 'string' || typeof s.definition !== 'string' || !Array.isArray(s.examples)) throw new InvalidArgumentError({ caller: 'sharedGlossTexts', argument: `synsets[${i}]`, expected: 'a synset { id, definition, examples } (readWordnet)', received: describeValue(synset) });
  });
  for (const synset of synsets) {
    for (const key of new Set([synset.definition, ...synset.examples].map(glossKey))) {
      if (key === '') continue;
      const ids = users.get(key);
      if (ids === undefined) users.set(key, [synset.id]);
      else ids.push(synset.id);
    }
  }
  for (const [key, ids] of users) if (ids.length < 2) users.delete(key);
  return users;
}
