import { Tokenizer } from '@huggingface/tokenizers';
import { InvalidArgumentError, checkInteger } from '@attnkit/errors';

/** Options of {@link BertTokenizer.encode}. */
export interface EncodeOptions {
  /** `'longest'` (default): pad to the longest sequence; `'max_length'`: to `maxLength`; `false`: no padding (then all must have equal length). */
  readonly padding?: 'longest' | 'max_length' | false;
  /** Cut sequences (pairs: longest first) so that they fit `maxLength` with their special tokens. Default true. */
  readonly truncation?: boolean;
  /** Default: the model's `model_max_length` from tokenizer_config.json, else 512. */
  readonly maxLength?: number;
}

/** A padded batch: `[B, T]` nested arrays, ready for `BertModel.forward`. */
export interface EncodedBatch {
  readonly inputIds: number[][];
  readonly attentionMask: number[][];
  readonly tokenTypeIds: number[][];
  /** The tokens of each sequence, without padding. */
  readonly tokens: string[][];
}

/**
 * Hugging Face's BERT WordPiece tokenizer (normalisation, pre-tokenisation and WordPiece done by
 * `@huggingface/tokenizers`), with batch padding, truncation and sentence pairs on top.
 *
 * @example
 * const tokenizer = await loadTokenizer('./models/attnkit-tiny-bert');
 * const batch = tokenizer.encode(['Hello world!', 'A second, longer sentence.']);
 * model.forward(batch);
 */
export class BertTokenizer {
  readonly #tokenizer: Tokenizer;
  readonly #cls: number;
  readonly #sep: number;
  readonly #pad: number;
  readonly modelMaxLength: number;

  constructor(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown> = {}) {
    this.#tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const id = (token: string): number => {
      const found = this.#tokenizer.token_to_id(token);
      if (found === undefined) throw new InvalidArgumentError({ caller: 'BertTokenizer', argument: 'tokenizer.json', expected: `a BERT vocabulary with ${token}`, received: 'none' });
      return found;
    };
    [this.#cls, this.#sep, this.#pad] = [id('[CLS]'), id('[SEP]'), id('[PAD]')];
    const max = tokenizerConfig['model_max_length'];
    this.modelMaxLength = typeof max === 'number' && Number.isInteger(max) && max > 2 && max < 1e6 ? max : 512;
  }

  /** WordPiece tokens of one text, without special tokens. */
  tokenize(text: string): string[] {
    return this.#tokenizer.tokenize(text);
  }

  /** The id of a token (`undefined` if it is not in the vocabulary). */
  tokenToId(token: string): number | undefined {
    return this.#tokenizer.token_to_id(token);
  }

  /** Text back from ids (special tokens skipped). */
  decode(ids: readonly number[]): string {
    return this.#tokenizer.decode([...ids], { skip_special_tokens: true });
  }

  /** Encodes texts, or `[first, second]` sentence pairs, as one padded batch. */
  encode(texts: ReadonlyArray<string | readonly [string, string]>, options: EncodeOptions = {}): EncodedBatch {
    const caller = 'BertTokenizer.encode';
    if (!Array.isArray(texts) || texts.length === 0) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a non-empty list of strings or [string, string] pairs', received: JSON.stringify(texts)?.slice(0, 40) ?? String(texts) });
    const maxLength = checkInteger(options.maxLength ?? this.modelMaxLength, { caller, argument: 'maxLength', min: 3 });
    const encoded = texts.map((entry: unknown, i) => {
      const pair = Array.isArray(entry) && entry.length === 2 && entry.every((s) => typeof s === 'string');
      if (typeof entry !== 'string' && !pair) {
        throw new InvalidArgumentError({ caller, argument: `texts[${i}]`, expected: 'a string or a [string, string] pair', received: JSON.stringify(entry)?.slice(0, 40) ?? String(entry) });
      }
      const [first, second] = typeof entry === 'string' ? [entry, undefined] : (entry as [string, string]);
      const a = this.#tokenizer.encode(first, { add_special_tokens: false }).ids;
      const b = second === undefined ? undefined : this.#tokenizer.encode(second, { add_special_tokens: false }).ids;
      if (options.truncation !== false) {
        const budget = maxLength - (b === undefined ? 2 : 3);
        while (a.length + (b?.length ?? 0) > budget) ((b !== undefined && b.length > a.length ? b : a) as number[]).pop(); // longest first
      }
      const ids = b === undefined ? [this.#cls, ...a, this.#sep] : [this.#cls, ...a, this.#sep, ...b, this.#sep];
      const types = b === undefined ? ids.map(() => 0) : [...Array(a.length + 2).fill(0), ...Array(b.length + 1).fill(1)];
      return { ids, types };
    });
    const longest = Math.max(...encoded.map((e) => e.ids.length));
    if (options.truncation === false && longest > maxLength) {
      throw new InvalidArgumentError({ caller, argument: 'texts', expected: `sequences of at most maxLength = ${maxLength} tokens (or truncation: true)`, received: `a sequence of ${longest} tokens` });
    }
    const width = options.padding === 'max_length' ? maxLength : longest;
    if (options.padding === false && encoded.some((e) => e.ids.length !== longest)) {
      throw new InvalidArgumentError({ caller, argument: 'padding', expected: "'longest' or 'max_length' for sequences of different lengths", received: 'false' });
    }
    const pad = (row: number[], value: number) => [...row, ...Array(width - row.length).fill(value)];
    return {
      inputIds: encoded.map((e) => pad(e.ids, this.#pad)),
      attentionMask: encoded.map((e) => pad(e.ids.map(() => 1), 0)),
      tokenTypeIds: encoded.map((e) => pad(e.types, 0)),
      tokens: encoded.map((e) => e.ids.map((id) => this.#tokenizer.id_to_token(id) ?? '[UNK]')),
    };
  }
}
