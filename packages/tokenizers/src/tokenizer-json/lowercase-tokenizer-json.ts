import { checkObject } from '@attnkit/errors';
/** Whether a `tokenizer.json` normalizer already lowercases (`Lowercase`, or `BertNormalizer` with `lowercase`), also inside a `Sequence`. */
function lowercases(normalizer: unknown): boolean {
  if (typeof normalizer !== 'object' || normalizer === null) return false;
  const n = normalizer as { type?: unknown; lowercase?: unknown; normalizers?: unknown };
  if (n.type === 'Lowercase' || (n.type === 'BertNormalizer' && n.lowercase === true)) return true;
  return n.type === 'Sequence' && Array.isArray(n.normalizers) && n.normalizers.some(lowercases);
}

/**
 * A `tokenizer.json` whose normalizer lowercases first: what sentence-transformers does for
 * `do_lower_case: true` (a `Lowercase` normalizer put in front, unless one is already there), so
 * special tokens written in the text are still found before lowercasing. Returns a new object.
 *
 * @example
 * new Tokenizer(lowercaseTokenizerJson(json), config).tokenize('Hello'); // ['hello']
 */
export function lowercaseTokenizerJson(tokenizerJson: Record<string, unknown>): Record<string, unknown> {
  checkObject(tokenizerJson, { caller: 'lowercaseTokenizerJson', argument: 'tokenizerJson', expected: 'a parsed tokenizer.json object' });
  const normalizer = tokenizerJson['normalizer'];
  if (lowercases(normalizer)) return tokenizerJson;
  const rest = normalizer === null || normalizer === undefined ? [] : typeof normalizer === 'object' && (normalizer as { type?: unknown }).type === 'Sequence' ? ((normalizer as { normalizers?: unknown[] }).normalizers ?? []) : [normalizer];
  return { ...tokenizerJson, normalizer: { type: 'Sequence', normalizers: [{ type: 'Lowercase' }, ...rest] } };
}
