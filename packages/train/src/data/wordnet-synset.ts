/** WordNet's part-of-speech letters, one per data file: noun, verb, adjective (heads and satellites), adverb. */
export type WordnetPos = 'n' | 'v' | 'a' | 'r';

/** The data files of a WordNet dict folder, by part of speech, in the order they are read. */
export const WORDNET_DATA_FILES: Readonly<Record<WordnetPos, string>> = { n: 'data.noun', v: 'data.verb', a: 'data.adj', r: 'data.adv' };

/**
 * One WordNet synset: a set of synonyms with one gloss.
 *
 * @example
 * // data.noun, offset 00001740:
 * { id: 'n00001740', pos: 'n', lemmas: ['entity'],
 *   definition: 'that which is perceived or known or inferred to have its own distinct existence (living or nonliving)', examples: [] }
 */
export interface WordnetSynset {
  /** `<pos><offset>`, e.g. `'n02086723'`: unique across the four files (an offset is unique within its file). */
  readonly id: string;
  /** The file's part of speech; adjective satellites (`ss_type` `s`) are `'a'`. */
  readonly pos: WordnetPos;
  /** The words, in file order, `_` read as a space and adjective markers (`(a)`, `(p)`, `(ip)`) removed. */
  readonly lemmas: readonly string[];
  /** The gloss without its examples (see `splitGloss`). */
  readonly definition: string;
  /** The double-quoted example sentences of the gloss, without the quotes or attributions. */
  readonly examples: readonly string[];
}
