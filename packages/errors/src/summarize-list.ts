import { describeValue } from './validate/describe-value.js';

/**
 * A list for an error message, bounded: the first `shown` items, then how many more there are.
 * Use it wherever a message names keys, files or values that a caller controls. It never throws:
 * anything but a list reads as no items, a count that is no positive integer as 12 and a separator
 * that is no string as `', '`.
 *
 * @example
 * summarizeList(['a.weight', 'b.weight', 'c.weight'], 2); // 'a.weight, b.weight and 1 more'
 * summarizeList(['a is [2]', 'b is [3]'], 12, '; '); // 'a is [2]; b is [3]'
 * summarizeList([]); // 'none'
 */
export function summarizeList(items: readonly unknown[], shown = 12, separator = ', '): string {
  if (!Array.isArray(items) || items.length === 0) return 'none';
  const limit = Number.isInteger(shown) && shown > 0 ? shown : 12;
  const between = typeof separator === 'string' ? separator : ', ';
  const head = items.slice(0, limit).map((item) => {
    let text: string;
    try {
      text = String(item);
    } catch {
      text = describeValue(item); // an object whose toString throws
    }
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  });
  const more = items.length - head.length;
  return more > 0 ? `${head.join(between)} and ${more} more` : head.join(between);
}
