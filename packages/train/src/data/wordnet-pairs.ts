import { InvalidArgumentError, checkInteger, checkOptionKeys, describeValue } from '@attnkit/errors';
import { seededHash } from './seeded-hash.js';
import { glossKey } from './shared-gloss-texts.js';
import type { WordnetSynset } from './wordnet-synset.js';

/** The pairs a synset gives, anchor first: its lemma list → its definition, an example → the definition, an example → another example. */
export const WORDNET_PAIR_KINDS = ['lemmas-definition', 'example-definition', 'example-example'] as const;
export type WordnetPairKind = (typeof WORDNET_PAIR_KINDS)[number];

/** A positive pair for `multipleNegativesRankingLoss` (the other pairs of a batch are the negatives). */
export interface WordnetPair {
  readonly anchor: string;
  readonly positive: string;
  readonly kind: WordnetPairKind;
  /** The synset both texts come from: two pairs of one synset in a batch are false negatives of each other. */
  readonly synsetId: string;
}

/** Options of {@link wordnetPairs}. */
export interface WordnetPairsOptions {
  /** Which pairs to make (default all of {@link WORDNET_PAIR_KINDS}). */
  readonly kinds?: readonly WordnetPairKind[];
  /** Picks the sample (with `maxPerSynset`) and the order; an integer in [0, 2^32); default 0. */
  readonly seed?: number;
  /** At most this many pairs of each kind per synset (a seeded sample of them); default: all. */
  readonly maxPerSynset?: number;
}

/** Every candidate pair of one kind for one synset, texts trimmed, empty or identical pairs left out. */
function candidates(synset: WordnetSynset, kind: WordnetPairKind): Array<[string, string]> {
  const definition = synset.definition.trim();
  const examples = synset.examples.map((e) => e.trim()).filter((e) => e !== '');
  const all: Array<[string, string]> = [];
  if (kind === 'lemmas-definition') all.push([synset.lemmas.join(', '), definition]);
  else if (kind === 'example-definition') for (const example of examples) all.push([example, definition]);
  else for (let i = 0; i < examples.length; i++) for (let j = i + 1; j < examples.length; j++) all.push([examples[i] as string, examples[j] as string]);
  return all.filter(([a, p]) => a !== '' && p !== '' && glossKey(a) !== glossKey(p));
}

/**
 * Positive pairs `{ anchor, positive }` for contrastive training (MNRL) from WordNet synsets —
 * make them from the train split only (`splitSynsets` first): `'lemmas-definition'`
 * (`'dog, domestic dog, Canis familiaris'` → its definition), `'example-definition'` (each
 * example → the definition, the direction of the retrieval evaluation) and `'example-example'`
 * (every two examples of one synset). With `maxPerSynset`, a synset gives at most that many pairs
 * of each kind, a sample chosen by `seed`. The result is ordered by a seeded hash of each pair, so
 * it is shuffled and the same for the same synsets, whatever their order.
 *
 * @example
 * const pairs = wordnetPairs(train, { kinds: ['lemmas-definition', 'example-definition'], seed: 0, maxPerSynset: 4 });
 * // [{ anchor: 'the dog barked all night', positive: 'a member of the genus Canis ...', kind: 'example-definition', synsetId: 'n02086723' }, ...]
 */
export function wordnetPairs(synsets: readonly WordnetSynset[], options: WordnetPairsOptions = {}): WordnetPair[] {
  const caller = 'wordnetPairs';
  checkOptionKeys(options, ['kinds', 'seed', 'maxPerSynset'], caller);
  const kinds = options.kinds === undefined ? WORDNET_PAIR_KINDS : options.kinds;
  if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => (WORDNET_PAIR_KINDS as readonly unknown[]).includes(k)) || new Set(kinds).size !== kinds.length) {
    throw new InvalidArgumentError({ caller, argument: 'kinds', expected: `a non-empty list of distinct kinds from ${WORDNET_PAIR_KINDS.map((k) => `'${k}'`).join(', ')}`, received: describeValue(kinds) });
  }
  const seed = checkInteger(options.seed === undefined ? 0 : options.seed, { caller, argument: 'seed', min: 0, max: 2 ** 32 - 1 });
  const cap = options.maxPerSynset === undefined ? Infinity : checkInteger(options.maxPerSynset, { caller, argument: 'maxPerSynset', min: 1 });
  if (!Array.isArray(synsets)) throw new InvalidArgumentError({ caller, argument: 'synsets', expected: 'a list of synsets (readWordnet, splitSynsets)', received: describeValue(synsets) });

  const pairs: Array<WordnetPair & { readonly order: number }> = [];
  synsets.forEach((synset, i) => {
    if (typeof synset?.id !== 'string' || typeof synset.definition !== 'string' || !Array.isArray(synset.lemmas) || !Array.isArray(synset.examples)) {
      throw new InvalidArgumentError({ caller, argument: `synsets[${i}]`, expected: 'a synset { id, pos, lemmas, definition, examples }', received: describeValue(synset) });
    }
    for (const kind of kinds) {
      const hashed = candidates(synset, kind).map(([anchor, positive]) => ({ anchor, positive, kind, synsetId: synset.id, order: seededHash(`${synset.id}\u0000${kind}\u0000${anchor}\u0000${positive}`, seed) }));
      hashed.sort((a, b) => a.order - b.order || compare(a.anchor + a.positive, b.anchor + b.positive));
      pairs.push(...hashed.slice(0, cap)); // the sample: the pairs of lowest hash
    }
  });
  pairs.sort((a, b) => a.order - b.order || compare(a.synsetId, b.synsetId) || compare(a.anchor + a.positive, b.anchor + b.positive));
  return pairs.map(({ anchor, positive, kind, synsetId }) => ({ anchor, positive, kind, synsetId }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
