/** Small synthetic paraphrase pairs for the trainer's tests: `count` distinct anchors, each with a reworded positive that keeps its subject. */
export function paraphrasePairs(count: number): Array<{ anchor: string; positive: string }> {
  const subjects = [['cat', 'kitten'], ['dog', 'puppy'], ['man', 'guy'], ['woman', 'lady'], ['child', 'kid'], ['bird', 'sparrow'], ['car', 'vehicle'], ['teacher', 'instructor']];
  const verbs = [['eats', 'is eating'], ['reads', 'is reading'], ['sees', 'is looking at'], ['likes', 'enjoys'], ['buys', 'is buying'], ['finds', 'discovers']];
  const objects = [['an apple', 'a red fruit'], ['the book', 'a novel'], ['a house', 'a home'], ['the river', 'a stream'], ['some bread', 'a loaf'], ['the music', 'a song'], ['a letter', 'a note']];
  const pairs: Array<{ anchor: string; positive: string }> = [];
  for (let i = 0; pairs.length < count; i++) {
    const [s, v, o] = [subjects[i % subjects.length]!, verbs[Math.floor(i / subjects.length) % verbs.length]!, objects[Math.floor(i / (subjects.length * verbs.length)) % objects.length]!];
    pairs.push({ anchor: `the ${s[0]} ${v[0]} ${o[0]}`, positive: `${o[1]}: the ${s[0]} ${v[1]} it` });
  }
  return pairs;
}

/** The embedded demo model (a plain BERT folder, 2 layers, 64 wide). */
export const TINY_BERT = decodeURIComponent(new URL('../../../models/assets/attnkit-tiny-bert/', import.meta.url).pathname);
/** sentence-transformers fixture folders written by the real library. */
export const SENTENCE_FIXTURES = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/sentence/', import.meta.url).pathname);
