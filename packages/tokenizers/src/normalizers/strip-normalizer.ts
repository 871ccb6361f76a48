const WHITESPACE = /\p{White_Space}/u;

/**
 * The `Strip` normalizer of the Rust `tokenizers` library: removes leading (`left`) and/or trailing
 * (`right`) whitespace, whitespace being Unicode White_Space (Rust's `char::is_whitespace`: U+0085
 * is whitespace, U+FEFF is not, unlike `String.prototype.trim`).
 *
 * @example
 * stripNormalizer(true, false)('\u0085 a '); // 'a '
 */
export function stripNormalizer(left: boolean, right: boolean): (text: string) => string {
  return (text) => {
    const chars = [...text];
    let start = 0;
    let end = chars.length;
    if (left) while (start < end && WHITESPACE.test(chars[start] ?? '')) start++;
    if (right) while (end > start && WHITESPACE.test(chars[end - 1] ?? '')) end--;
    return start === 0 && end === chars.length ? text : chars.slice(start, end).join('');
  };
}
