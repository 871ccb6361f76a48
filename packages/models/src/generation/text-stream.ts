import { InvalidArgumentError, checkInteger, describeValue } from '@attnkit/errors';
import type { GenerationTokenizer } from './generate-options.js';

/** The prompt tokens kept as context, so that a piece's leading space decodes as in the whole text (text-generation-inference keeps 5). */
const CONTEXT = 5;

/**
 * Text from token ids as they come, valid UTF-8 only: each `push(id)` returns the text that id
 * completes, `''` while a character is incomplete (a byte-level BPE or byte-fallback piece split inside
 * a character decodes to U+FFFD until its last byte comes). It decodes a short window of ids twice —
 * the ids already shown and those plus the new ones — and returns the difference once the window no
 * longer ends in U+FFFD (text-generation-inference's incremental decoding), so the tokenizer's own
 * decoder (byte level, byte fallback, SentencePiece spaces) decides every byte. Byte-fallback pieces
 * (`<0xXX>`, `tokenizer.isByteToken`) are held until their run ends (special tokens, which decode
 * skips, do not end it), since a later byte can turn the whole run into U+FFFD: the pieces joined
 * are the decoded text.
 *
 * @example
 * const text = new TextStream(tokenizer, promptIds);
 * for (const id of newIds) process.stdout.write(text.push(id));
 * process.stdout.write(text.flush());
 */
export class TextStream {
  readonly #tokenizer: GenerationTokenizer;
  readonly #ids: number[];
  #prefix = 0;
  #read: number;
  #inByteRun = false;

  constructor(tokenizer: GenerationTokenizer, context: readonly number[] = []) {
    if (typeof tokenizer !== 'object' || tokenizer === null || typeof tokenizer.decode !== 'function') throw new InvalidArgumentError({ caller: 'TextStream', argument: 'tokenizer', expected: 'a tokenizer with decode(ids) (loadTokenizer of @attnkit/tokenizers)', received: describeValue(tokenizer) });
    // Array.from reads a hole as undefined: a sparse context is refused
    if (!Array.isArray(context) || !Array.from(context as readonly number[]).every((id) => Number.isInteger(id))) throw new InvalidArgumentError({ caller: 'TextStream', argument: 'context', expected: 'the prompt ids (integers)', received: describeValue(context) });
    this.#tokenizer = tokenizer;
    this.#ids = context.slice(-CONTEXT);
    this.#read = this.#ids.length;
  }

  /** The text `id` completes: `''` while held back. */
  push(id: number): string {
    checkInteger(id, { caller: 'TextStream.push', argument: 'id', min: 0 });
    this.#ids.push(id);
    // a run of byte pieces (special tokens inside it are skipped by decode, so they do not end it) is held whole
    if (this.#tokenizer.isByteToken?.(id) === true) this.#inByteRun = true;
    else if (!this.#inByteRun || this.#tokenizer.decode([id]) !== '') this.#inByteRun = false;
    return this.#inByteRun ? '' : this.#next(false);
  }

  /** What is still held back (an incomplete character at the end of generation decodes to U+FFFD). */
  flush(): string {
    return this.#read < this.#ids.length ? this.#next(true) : '';
  }

  #next(force: boolean): string {
    const shown = this.#tokenizer.decode(this.#ids.slice(this.#prefix, this.#read));
    const text = this.#tokenizer.decode(this.#ids.slice(this.#prefix));
    if (!force && (text.length <= shown.length || text.endsWith('\uFFFD'))) return '';
    const piece = text.slice(shown.length);
    this.#prefix = this.#read;
    this.#read = this.#ids.length;
    return piece;
  }
}
