/**
 * A similarity matrix `[N, N]` as a table: a header of column numbers, then one numbered row per
 * text, three decimals (the numbers are those of the numbered list printed beside it).
 *
 * @example
 * formatSimilarityMatrix([[1, 0.5], [0.5, 1]]).join('\n');
 * //           1      2
 * //   1   1.000  0.500
 * //   2   0.500  1.000
 */
export function formatSimilarityMatrix(matrix: readonly (readonly number[])[]): string[] {
  return [
    `     ${matrix.map((_, j) => `${j + 1}`.padStart(7)).join('')}`,
    ...matrix.map((row, i) => `  ${`${i + 1}`.padStart(2)} ${row.map((v) => v.toFixed(3).padStart(7)).join('')}`),
  ];
}
