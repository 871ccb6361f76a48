/**
 * The tooltip text of a cell of a sentence-similarity heatmap: both sentences (number and the
 * start of the text) and the cosine, after `prefix` if given.
 *
 * @example
 * describeSimilarity(['The cat sat.', 'A cat was sitting.'])(0, 1, 0.93); // 'sentence 1 “The cat sat.” × sentence 2 “A cat was sitting.”: cosine 0.9300'
 */
export function describeSimilarity(texts: readonly string[], prefix = ''): (row: number, column: number, value: number) => string {
  const short = (i: number) => `sentence ${i + 1} “${texts[i]!.length > 40 ? `${texts[i]!.slice(0, 39)}…` : texts[i]}”`;
  return (i, j, value) => `${prefix}${short(i)} × ${short(j)}: cosine ${value.toFixed(4)}`;
}
