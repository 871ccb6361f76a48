import { InvalidArgumentError, summarizeList } from '@attnkit/errors';

const MODEL_KINDS = ['WordPiece', 'BPE', 'Unigram', 'WordLevel'] as const;
const MAX_ID = 2 ** 31 - 1;
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_ID;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * Checks the parts of a parsed `tokenizer.json` that become token ids, before the tokenizer is
 * built from them, so that a hostile or broken file is a typed error and never yields objects,
 * fractions or negative numbers as ids: `model.type` is one of WordPiece, BPE, Unigram or
 * WordLevel (or absent); a WordPiece/BPE/WordLevel `vocab` is an object whose every value is an
 * integer id in [0, 2³¹) (keys such as `"__proto__"` or `"constructor"` are ordinary tokens, kept
 * in a `Map`); a Unigram `vocab` is a list of `[piece, score]` with a finite score and `unk_id` is an index into it; BPE `merges` is a list of `"a b"` strings
 * or `["a", "b"]` pairs; each of `added_tokens` has an integer `id` and a string `content`.
 * Messages name at most three offending entries.
 *
 * @example
 * checkTokenizerJson(JSON.parse(text), 'loadTokenizer'); // InvalidArgumentError for {"model": {"vocab": {"a": {}}}}
 */
export function checkTokenizerJson(json: Record<string, unknown>, caller: string): void {
  if (typeof caller !== 'string') throw new InvalidArgumentError({ caller: 'checkTokenizerJson', argument: 'caller', expected: 'the name of the calling function (for messages)', received: show(caller) });
  const fail = (argument: string, expected: string, received: string): never => {
    throw new InvalidArgumentError({ caller, argument: `tokenizer.json ${argument}`, expected, received });
  };
  if (!isRecord(json)) throw new InvalidArgumentError({ caller, argument: 'tokenizer.json', expected: 'a JSON object', received: show(json) });
  const model = Object.hasOwn(json, 'model') ? json['model'] : undefined;
  if (!isRecord(model)) fail('model', 'an object', show(model));
  const m = new Map(Object.entries(model as Record<string, unknown>));
  const type = m.get('type');
  if (type !== undefined && !(MODEL_KINDS as readonly unknown[]).includes(type)) fail('model.type', `one of ${MODEL_KINDS.map((k) => `"${k}"`).join(', ')}`, show(type));
  const vocab = m.get('vocab');
  if (type === 'Unigram' || (type === undefined && Array.isArray(vocab))) {
    if (!Array.isArray(vocab)) fail('model.vocab', 'a list of [piece, score] pairs (Unigram)', show(vocab));
    const entries = vocab as unknown[];
    const bad = entries.flatMap((entry, i) => (Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'number' && Number.isFinite(entry[1]) ? [] : [`[${i}] ${show(entry)}`]));
    if (bad.length > 0) fail('model.vocab', 'a list of [piece, finite score] pairs', `${bad.length} other entries: ${summarizeList(bad, 3)}`);
    const unk = m.get('unk_id');
    if (unk !== undefined && unk !== null && !(isId(unk) && unk < entries.length)) fail('model.unk_id', `null or an index into the vocabulary (0 to ${entries.length - 1})`, show(unk));
  } else {
    if (!isRecord(vocab)) fail('model.vocab', 'an object of token → id', show(vocab));
    const bad = Object.entries(vocab as Record<string, unknown>).flatMap(([token, id]) => (isId(id) ? [] : [`${quote(token)}: ${show(id)}`]));
    if (bad.length > 0) fail('model.vocab', `integer ids in [0, ${MAX_ID}] for every token`, `${bad.length} other values: ${summarizeList(bad, 3)}`);
    const unk = m.get('unk_token');
    if (unk !== undefined && unk !== null && typeof unk !== 'string') fail('model.unk_token', 'a string or null', show(unk));
  }
  if (type === 'BPE') {
    const merges = m.get('merges');
    if (!Array.isArray(merges)) fail('model.merges', 'a list of merges (BPE)', show(merges));
    const bad = (merges as unknown[]).flatMap((merge, i) => ((typeof merge === 'string' && merge.includes(' ')) || (Array.isArray(merge) && merge.length === 2 && merge.every((p) => typeof p === 'string')) ? [] : [`[${i}] ${show(merge)}`]));
    if (bad.length > 0) fail('model.merges', '"a b" strings or ["a", "b"] pairs', `${bad.length} other entries: ${summarizeList(bad, 3)}`);
  }
  const added = Object.hasOwn(json, 'added_tokens') ? json['added_tokens'] : undefined;
  if (added !== undefined && added !== null) {
    if (!Array.isArray(added)) fail('added_tokens', 'a list', show(added));
    const bad = (added as unknown[]).flatMap((token, i) => (isRecord(token) && Object.hasOwn(token, 'id') && isId(token['id']) && typeof token['content'] === 'string' ? [] : [`[${i}] ${show(token)}`]));
    if (bad.length > 0) fail('added_tokens', 'objects with an integer id in [0, 2³¹) and a string content', `${bad.length} other entries: ${summarizeList(bad, 3)}`);
  }
}
