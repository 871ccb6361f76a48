/**
 * A membership test for a set of code points written as hex ranges, `"21-2f,3a,..."` (the format of
 * the generated `rust-unicode-tables.ts`): a binary search over the range starts.
 *
 * @example
 * const isPunctuation = codePointSet(PUNCTUATION);
 * isPunctuation(0x21); // true ('!')
 */
export function codePointSet(ranges: string): (codePoint: number) => boolean {
  const parts = ranges === '' ? [] : ranges.split(',');
  const starts = new Uint32Array(parts.length);
  const ends = new Uint32Array(parts.length);
  parts.forEach((part, i) => {
    const [start = '0', end = start] = part.split('-');
    starts[i] = Number.parseInt(start, 16);
    ends[i] = Number.parseInt(end, 16);
  });
  return (codePoint) => {
    let low = 0;
    let high = starts.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      if ((starts[mid] ?? 0) > codePoint) high = mid - 1;
      else if ((ends[mid] ?? 0) < codePoint) low = mid + 1;
      else return true;
    }
    return false;
  };
}
