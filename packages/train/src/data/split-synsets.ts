import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { seededHash } from './seeded-hash.js';
import { glossKey, sharedGlossTexts } from './shared-gloss-texts.js';
import type { WordnetSynset } from './wordnet-synset.js';

/** Options of {@link splitSynsets}. */
export interface SplitSynsetsOptions {
  /** The share of synsets drawn for the held-out split, in (0, 1); default 0.1. */
  readonly heldOutFraction?: number;
  /** Picks a different split; an integer in [0, 2^32); default 0. */
  readonly seed?: number;
}

/** The result of {@link splitSynsets}: both splits in input order. */
export interface SynsetSplit {
  readonly train: WordnetSynset[];
  readonly heldOut: WordnetSynset[];
  /** Ids drawn for held-out but put in train because a gloss text of theirs is another synset's too. */
  readonly moved: string[];
}

/**
 * Splits synsets (not pairs) into train and held-out, before any pair is made. A synset is drawn
 * for held-out when `seededHash(id, seed) / 2^32 < heldOutFraction`, so the split depends on the
 * ids and the seed only, not on the order of the input. Then, against leakage, a drawn synset
 * whose definition or an example (compared trimmed, white space collapsed, lower-cased) is also a
 * gloss text of any other synset is moved to train: no held-out text is seen in training, and the
 * held-out definitions are distinct, so each retrieval query has one right answer.
 *
 * @example
 * const { train, heldOut, moved } = splitSynsets(await readWordnet(dict), { heldOutFraction: 0.1, seed: 0 });
 */
export function splitSynsets(synsets: readonly WordnetSynset[], options: SplitSynsetsOptions = {}): SynsetSplit {
  const caller = 'splitSynsets';
  checkOptionKeys(options, ['heldOutFraction', 'seed'], caller);
  const fraction = options.heldOutFraction === undefined ? 0.1 : options.heldOutFraction;
  if (typeof fraction !== 'number' || !(fraction > 0 && fraction < 1)) {
    throw new InvalidArgumentError({ caller, argument: 'heldOutFraction', expected: 'a number in (0, 1), e.g. 0.1', received: describeValue(fraction) });
  }
  const seed = checkInteger(options.seed === undefined ? 0 : options.seed, { caller, argument: 'seed', min: 0, max: 2 ** 32 - 1 });
  if (!Array.isArray(synsets)) throw new InvalidArgumentError({ caller, argument: 'synsets', expected: 'a list of synsets (readWordnet)', received: describeValue(synsets) });
  const ids = new Set<string>();
  synsets.forEach((synset, i) => {
    checkObject(synset, { caller, argument: `synsets[${i}]`, expected: 'a synset { id, pos, lemmas, definition, examples }' });
    if (typeof synset.id !== 'string' || typeof synset.definition !== 'string' || !Array.isArray(synset.examples)) {
      throw new InvalidArgumentError({ caller, argument: `synsets[${i}]`, expected: 'a synset { id, pos, lemmas, definition, examples }', received: describeValue(synset) });
    }
    if (ids.has(synset.id)) throw new InvalidArgumentError({ caller, argument: `synsets[${i}].id`, expected: 'an id no other synset has', received: `'${synset.id}' again` });
    ids.add(synset.id);
  });

  const shared = sharedGlossTexts(synsets);
  const train: WordnetSynset[] = [];
  const heldOut: WordnetSynset[] = [];
  const moved: string[] = [];
  for (const synset of synsets) {
    if (seededHash(synset.id, seed) / 2 ** 32 >= fraction) train.push(synset);
    else if ([synset.definition, ...synset.examples].some((text) => shared.has(glossKey(text)))) {
      train.push(synset);
      moved.push(synset.id);
    } else heldOut.push(synset);
  }
  return { train, heldOut, moved };
}
