import { InvalidArgumentError, checkInteger, checkObject, checkOptionKeys, describeValue } from '@attnkit/errors';
import { applyChatTemplate, type ApplyChatTemplateOptions } from './chat/apply-chat-template.js';
import type { ChatMessage } from './chat/chat-message.js';
import { chatTemplatesOf, type ChatTemplates } from './chat/chat-templates.js';
import { templateSpecialTokens } from './chat/template-special-tokens.js';
import { MissingUnknownToken, type Token } from './models/tokenizer-model.js';
import { isByteFallbackToken } from './decoders/byte-fallback-decoder.js';
import { TokenizerPipeline } from './pipeline/tokenizer-pipeline.js';
import { checkTokenizerJson } from './tokenizer-json/check-tokenizer-json.js';

/** Options of {@link Tokenizer.encode}. A `null` option is left out (its default, as `None` in transformers). */
export interface EncodeOptions {
  /** `'longest'` (default): pad to the longest sequence; `'max_length'`: to `maxLength` (at most 2^20); `false`: no padding (then all must have equal length). */
  readonly padding?: 'longest' | 'max_length' | false;
  /**
   * Default true: cut sequences (pairs: longest first, as Hugging Face's `longest_first`) so that
   * they fit `maxLength` with their special tokens. `false`: return every id, however long (the
   * model then says whether it can take them). Hugging Face's strategies by name:
   * `'longest_first'` (= true), `'only_first'` / `'only_second'` (cut only that side of a pair; an
   * error when that side cannot give enough, or, for `'only_second'`, when a single text is too
   * long), `'do_not_truncate'` (= false).
   */
  readonly truncation?: boolean | TruncationStrategy;
  /** Default: the model's `model_max_length` from tokenizer_config.json, else 512. */
  readonly maxLength?: number;
  /** Which end of a shorter sequence gets the padding. Default: the tokenizer's {@link Tokenizer.paddingSide} (`'left'` for most decoder embedding models). */
  readonly paddingSide?: PaddingSide;
}

/** Which end of a sequence padding goes to (transformers' `padding_side`). */
export type PaddingSide = 'left' | 'right';

/** Hugging Face's truncation strategies (`TruncationStrategy` in transformers). */
export type TruncationStrategy = 'longest_first' | 'only_first' | 'only_second' | 'do_not_truncate';

const TRUNCATION_VALUES: ReadonlyArray<boolean | TruncationStrategy> = [true, false, 'longest_first', 'only_first', 'only_second', 'do_not_truncate'];
const PADDING_VALUES: ReadonlyArray<EncodeOptions['padding']> = ['longest', 'max_length', false];
const PADDING_SIDES: readonly PaddingSide[] = ['left', 'right'];

/** Options of the {@link Tokenizer} constructor: files of the folder beside tokenizer.json and tokenizer_config.json. */
export interface TokenizerFiles {
  /** The text of the folder's `chat_template.jinja`: its default chat template, which wins over tokenizer_config.json's `chat_template` (as in transformers 5). */
  readonly chatTemplate?: string;
}

/** A padded batch: `[B, T]` nested arrays, ready for an encoder's `forward`. */
export interface EncodedBatch {
  readonly inputIds: number[][];
  readonly attentionMask: number[][];
  /** Segment ids from the post-processor; all zeros for tokenizers whose models take none (RoBERTa, XLM-R, DistilBERT, MPNet). */
  readonly tokenTypeIds: number[][];
  /** The tokens of each sequence, without padding. */
  readonly tokens: string[][];
}

/** The longest `padding: 'max_length'` pads to (2^20 tokens): every row is made that long, so a larger `maxLength` would allocate gigabytes. */
const MAX_PADDED_LENGTH = 2 ** 20;

/** Tokenizer classes whose models take no token type ids (transformers' `model_input_names` without them). */
const WITHOUT_TOKEN_TYPES = /^(Roberta|XLMRoberta|DistilBert|MPNet|Camembert|Bart|Longformer)Tokenizer(Fast)?$/;

/** A special token named in tokenizer_config.json: a string or an `AddedToken` object with `content`. */
function tokenName(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string') return (value as { content: string }).content;
  return undefined;
}

/**
 * A Hugging Face tokenizer from its `tokenizer.json` — WordPiece (BERT, DistilBERT, ELECTRA,
 * MPNet), BPE (RoBERTa, GPT-2, Llama), Unigram/SentencePiece (XLM-R, T5) or WordLevel — with the
 * file's normalizer, pre-tokenizer, added tokens, post-processor and decoder run by attnkit's own
 * implementation of the Rust `tokenizers` library's components (every type tokenizers 0.23 writes;
 * docs/models.md lists them), `longest_first` truncation that keeps the special tokens, batch
 * padding and sentence pairs. The file is checked as data first ({@link checkTokenizerJson}:
 * integer ids, a known model type); a component it cannot run exactly (BPE dropout, an unknown
 * type) is a typed error naming its type and place, and its regular expressions must not backtrack
 * catastrophically.
 *
 * @example
 * const tokenizer = await loadTokenizer('./all-MiniLM-L6-v2');
 * const batch = tokenizer.encode(['Hello world!', ['A question?', 'An answer.']]);
 * encoder.forward(batch);
 */
export class Tokenizer {
  readonly #pipeline: TokenizerPipeline;
  readonly #pad: number | undefined;
  readonly #specials: { readonly single: number; readonly pair: number };
  readonly #tokenTypes: boolean;
  readonly #cleanUpSpaces: boolean;
  readonly #chat: ChatTemplates;
  readonly #templateTokens: Readonly<Record<string, string>>;
  readonly modelMaxLength: number;
  /**
   * Where `encode` pads: tokenizer_config.json's `padding_side`, else the direction of tokenizer.json's
   * `padding` (`"Left"`), else `'right'` — as transformers reads them. Decoder embedding models
   * (Qwen3-Embedding, e5-mistral) pad on the left, so that every row ends with its last token.
   */
  readonly paddingSide: PaddingSide;

  /**
   * `tokenizerJson`: a parsed `tokenizer.json`; `tokenizerConfig`: a parsed `tokenizer_config.json`
   * (pad token, `model_max_length`, class, `clean_up_tokenization_spaces`, special tokens and
   * `chat_template`); `files`: the folder's `chat_template.jinja` text, if any.
   */
  constructor(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown> = {}, files: TokenizerFiles = {}) {
    checkTokenizerJson(tokenizerJson, 'Tokenizer');
    checkObject(tokenizerConfig, { caller: 'Tokenizer', argument: 'tokenizerConfig', expected: 'a parsed tokenizer_config.json object' });
    checkObject(files, { caller: 'Tokenizer', argument: 'files', expected: 'an object { chatTemplate? }' });
    checkOptionKeys(files, ['chatTemplate'], 'Tokenizer', 'files');
    if (files.chatTemplate !== undefined && typeof files.chatTemplate !== 'string') throw new InvalidArgumentError({ caller: 'Tokenizer', argument: 'files.chatTemplate', expected: "the text of the folder's chat_template.jinja", received: describeValue(files.chatTemplate) });
    this.#chat = chatTemplatesOf(tokenizerConfig, files.chatTemplate, 'Tokenizer');
    this.#templateTokens = templateSpecialTokens(tokenizerConfig);
    const config = new Map(Object.entries(tokenizerConfig));
    this.#pipeline = new TokenizerPipeline(tokenizerJson, 'Tokenizer');
    const padName = tokenName(config.get('pad_token')) ?? tokenName((tokenizerJson['padding'] as { pad_token?: unknown } | null)?.pad_token) ?? ['[PAD]', '<pad>'].find((t) => this.#pipeline.tokenToId(t) !== undefined);
    this.#pad = padName === undefined ? undefined : this.#pipeline.tokenToId(padName);
    this.#specials = { single: this.#pipeline.postProcess([], null).ids.length, pair: this.#pipeline.postProcess([], []).ids.length };
    const names = config.get('model_input_names');
    const tokenizerClass = config.get('tokenizer_class');
    this.#tokenTypes = Array.isArray(names) ? names.includes('token_type_ids') : !(typeof tokenizerClass === 'string' && WITHOUT_TOKEN_TYPES.test(tokenizerClass));
    // transformers 5 cleans decoded text up only when tokenizer_config.json asks, and never for BPE models
    const model = tokenizerJson['model'] as { type?: unknown; merges?: unknown };
    this.#cleanUpSpaces = config.get('clean_up_tokenization_spaces') === true && !(model.type === 'BPE' || (model.type === undefined && model.merges !== undefined));
    const max = config.get('model_max_length');
    this.modelMaxLength = typeof max === 'number' && Number.isInteger(max) && max > this.#specials.single && max < 1e6 ? max : 512;
    const side = config.get('padding_side') ?? undefined;
    const direction = (tokenizerJson['padding'] as { direction?: unknown } | null | undefined)?.direction;
    if (side !== undefined && side !== null && !PADDING_SIDES.includes(side as PaddingSide)) throw new InvalidArgumentError({ caller: 'Tokenizer', argument: 'tokenizerConfig.padding_side', expected: "'left' or 'right' (as transformers accepts)", received: describeValue(side) });
    this.paddingSide = (side ?? (direction === 'Left' ? 'left' : 'right')) as PaddingSide;
  }

  /** The folder's chat templates by name (`'default'`, ...): `chat_template.jinja`, else tokenizer_config.json's `chat_template`; empty for a model without one. */
  get chatTemplates(): ReadonlyMap<string, string> {
    return this.#chat.templates;
  }

  /**
   * A conversation as the prompt its chat model was trained on: transformers'
   * `apply_chat_template`. The folder's template (`chat_template.jinja`, else tokenizer_config.json's
   * `chat_template`, a string or named templates) is rendered with `messages`, `add_generation_prompt`,
   * `tools`, `documents`, the special tokens of tokenizer_config.json (`bos_token`, `eos_token`, ...)
   * and `variables`; `tokenize: true` returns its ids instead (encoded without adding special
   * tokens, as transformers does: the template writes them). A folder without a template, a template
   * that calls `raise_exception` or fails to render is a `ChatTemplateError`; bad messages, an
   * unknown `templateName` or bad options an `InvalidArgumentError`.
   *
   * @example
   * const prompt = tokenizer.applyChatTemplate([{ role: 'user', content: 'Hi!' }], { addGenerationPrompt: true });
   * const ids = tokenizer.applyChatTemplate([{ role: 'user', content: 'Hi!' }], { addGenerationPrompt: true, tokenize: true }); // [T]
   */
  applyChatTemplate(messages: readonly ChatMessage[], options: ApplyChatTemplateOptions & { readonly tokenize: true }): number[];
  applyChatTemplate(messages: readonly ChatMessage[], options?: ApplyChatTemplateOptions & { readonly tokenize?: false }): string;
  applyChatTemplate(messages: readonly ChatMessage[], options?: ApplyChatTemplateOptions): string | number[];
  applyChatTemplate(messages: readonly ChatMessage[], options: ApplyChatTemplateOptions = {}): string | number[] {
    const caller = 'Tokenizer.applyChatTemplate';
    const encode = (text: string) => this.#encodeText(text, caller, 'messages').map((t) => t.id);
    return applyChatTemplate({ chat: this.#chat, specialTokens: this.#templateTokens, encode }, messages, options, caller);
  }

  /** Tokens of one text, without special tokens. */
  tokenize(text: string): string[] {
    if (typeof text !== 'string') throw new InvalidArgumentError({ caller: 'Tokenizer.tokenize', argument: 'text', expected: 'a string', received: describeValue(text) });
    return this.#encodeText(text, 'Tokenizer.tokenize', 'text').map((t) => t.token);
  }

  /** The id of a token (`undefined` if it is not in the vocabulary). */
  tokenToId(token: string): number | undefined {
    if (typeof token !== 'string') throw new InvalidArgumentError({ caller: 'Tokenizer.tokenToId', argument: 'token', expected: 'a token string', received: describeValue(token) });
    return this.#pipeline.tokenToId(token);
  }

  /** The token of an id (`undefined` outside the vocabulary). */
  idToToken(id: number): string | undefined {
    if (!Number.isInteger(id)) throw new InvalidArgumentError({ caller: 'Tokenizer.idToToken', argument: 'id', expected: 'an integer token id', received: describeValue(id) });
    return this.#pipeline.idToToken(id);
  }

  /**
   * Whether `id` is a byte piece (`<0xXX>`) that the byte-fallback decoder decodes together with the
   * byte pieces next to it: its text is known only once the run of them ends (a run that is not valid
   * UTF-8 decodes to one U+FFFD per byte). Streaming decoders hold such ids back.
   */
  isByteToken(id: number): boolean {
    if (!Number.isInteger(id)) throw new InvalidArgumentError({ caller: 'Tokenizer.isByteToken', argument: 'id', expected: 'an integer token id', received: describeValue(id) });
    const token = this.#pipeline.idToToken(id);
    return token !== undefined && isByteFallbackToken(token);
  }

  /** Whether `token` is one of the file's special tokens (`[CLS]`, `</s>`, ...). */
  isSpecialToken(token: string): boolean {
    if (typeof token !== 'string') throw new InvalidArgumentError({ caller: 'Tokenizer.isSpecialToken', argument: 'token', expected: 'a token string (idToToken(id) gives one)', received: describeValue(token) });
    return this.#pipeline.added.isSpecial(token);
  }

  /** The number of special tokens the post-processor adds to one text (`pair: true`: to a pair). */
  numSpecialTokens(pair = false): number {
    return pair ? this.#specials.pair : this.#specials.single;
  }

  /**
   * Text back from ids, special tokens skipped: the `tokenizers` library's
   * `decode(ids, skip_special_tokens=True)` (the file's decoder; ids outside the vocabulary
   * dropped), then transformers' clean-up of spaces before punctuation when tokenizer_config.json
   * sets `clean_up_tokenization_spaces` (not for BPE models, as transformers 5).
   */
  decode(ids: readonly number[]): string {
    if (!Array.isArray(ids) || !Array.from(ids).every((id) => Number.isInteger(id))) throw new InvalidArgumentError({ caller: 'Tokenizer.decode', argument: 'ids', expected: 'a list of integer token ids', received: describeValue(ids) });
    const text = this.#pipeline.decode(ids, true);
    return this.#cleanUpSpaces ? cleanUpTokenization(text) : text;
  }

  /** Encodes texts, or `[first, second]` sentence pairs, as one padded batch. */
  encode(texts: ReadonlyArray<string | readonly [string, string]>, options: EncodeOptions = {}): EncodedBatch {
    const caller = 'Tokenizer.encode';
    checkOptionKeys(options, ['padding', 'truncation', 'maxLength', 'paddingSide'], caller);
    if (!Array.isArray(texts) || texts.length === 0) throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'a non-empty list of strings or [string, string] pairs', received: describeValue(texts) });
    const padding = options.padding ?? 'longest';
    if (!PADDING_VALUES.includes(padding)) throw new InvalidArgumentError({ caller, argument: 'padding', expected: "'longest', 'max_length' or false", received: describeValue(padding) });
    const paddingSide = options.paddingSide ?? this.paddingSide;
    if (!PADDING_SIDES.includes(paddingSide)) throw new InvalidArgumentError({ caller, argument: 'paddingSide', expected: "'left' or 'right'", received: describeValue(paddingSide) });
    const truncation = options.truncation ?? true;
    if (!TRUNCATION_VALUES.includes(truncation)) {
      throw new InvalidArgumentError({ caller, argument: 'truncation', expected: "true, false, 'longest_first', 'only_first', 'only_second' or 'do_not_truncate'", received: describeValue(truncation) });
    }
    const strategy = truncation === true ? 'longest_first' : truncation === false ? 'do_not_truncate' : truncation;
    const maxLength = checkInteger(options.maxLength ?? this.modelMaxLength, { caller, argument: 'maxLength', min: this.#specials.single + 1 });
    if (padding === 'max_length' && maxLength > MAX_PADDED_LENGTH) {
      throw new InvalidArgumentError({ caller, argument: 'maxLength', expected: `at most ${MAX_PADDED_LENGTH} with padding: 'max_length' (every row is padded to it)`, received: String(maxLength), hint: "padding: 'longest' pads to the longest sequence only." });
    }
    // Array.from: one read of each entry (a hole is undefined and refused; nothing changes after its check)
    const encoded = Array.from(texts as ArrayLike<unknown>).map((entry: unknown, i) => {
      const parts: unknown[] | undefined = Array.isArray(entry) ? Array.from(entry as ArrayLike<unknown>) : undefined;
      const pair = parts !== undefined && parts.length === 2 && parts.every((s) => typeof s === 'string');
      if (typeof entry !== 'string' && !pair) throw new InvalidArgumentError({ caller, argument: `texts[${i}]`, expected: 'a string or a [string, string] pair', received: describeValue(entry) });
      const [first, second] = typeof entry === 'string' ? [entry, undefined] : (parts as [string, string]);
      let a = this.#encodeText(first, caller, `texts[${i}]`);
      let b = second === undefined ? null : this.#encodeText(second, caller, `texts[${i}]`);
      if (strategy !== 'do_not_truncate') {
        const budget = maxLength - (b === null ? this.#specials.single : this.#specials.pair);
        if (budget < (b === null ? 1 : 2)) throw new InvalidArgumentError({ caller, argument: 'maxLength', expected: `room for ${b === null ? this.#specials.single : this.#specials.pair} special tokens and the text (≥ ${maxLength - budget + (b === null ? 1 : 2)})`, received: String(maxLength) });
        if (strategy === 'longest_first') [a, b] = b === null ? [a.slice(0, budget), null] : longestFirst(a, b, budget, maxLength);
        else [a, b] = onlyOneSide(strategy, a, b, budget, { caller, index: i, maxLength });
      }
      const { ids, tokens, typeIds } = this.#pipeline.postProcess(a, b);
      return { ids: [...ids], tokens: [...tokens], types: this.#tokenTypes ? [...typeIds] : ids.map(() => 0) };
    });
    const longest = encoded.reduce((n, e) => Math.max(n, e.ids.length), 0); // a loop, not Math.max(...spread): any number of texts
    const width = padding === 'max_length' ? Math.max(maxLength, longest) : longest;
    if (padding === false && encoded.some((e) => e.ids.length !== longest)) {
      throw new InvalidArgumentError({ caller, argument: 'padding', expected: "'longest' or 'max_length' for sequences of different lengths", received: 'false' });
    }
    const pad = this.#pad;
    if (pad === undefined && encoded.some((e) => e.ids.length !== width)) {
      throw new InvalidArgumentError({ caller, argument: 'texts', expected: 'sequences of one length: the tokenizer has no padding token (pad_token in tokenizer_config.json)', received: 'sequences of different lengths' });
    }
    const padded = (row: number[], value: number) => {
      if (row.length === width) return row;
      const fill = Array<number>(width - row.length).fill(value);
      return paddingSide === 'left' ? [...fill, ...row] : [...row, ...fill];
    };
    return {
      inputIds: encoded.map((e) => padded(e.ids, pad as number)),
      attentionMask: encoded.map((e) => padded(e.ids.map(() => 1), 0)),
      tokenTypeIds: encoded.map((e) => padded(e.types, 0)),
      tokens: encoded.map((e) => e.tokens),
    };
  }

  /** The tokens of one text (no special tokens); a piece the model can only give as an unknown token it does not have is a typed error. */
  #encodeText(text: string, caller: string, argument: string): Token[] {
    try {
      return this.#pipeline.encode(text);
    } catch (error) {
      if (!(error instanceof MissingUnknownToken)) throw error;
      throw new InvalidArgumentError({ caller, argument, expected: 'text whose tokens are all in the vocabulary (the tokenizer has no unknown token to stand for the others)', received: `the piece ${JSON.stringify(error.piece.length > 40 ? `${error.piece.slice(0, 40)}…` : error.piece)}` });
    }
  }
}

/** transformers' `clean_up_tokenization`: no space before . ? ! , and English contractions (the WordPiece decoder's clean-up less its " do not" rule). */
function cleanUpTokenization(text: string): string {
  const rules: [string, string][] = [[' .', '.'], [' ?', '?'], [' !', '!'], [' ,', ','], [" ' ", "'"], [" n't", "n't"], [" 'm", "'m"], [" 's", "'s"], [" 've", "'ve"], [" 're", "'re"]];
  return rules.reduce((out, [from, to]) => out.replaceAll(from, to), text);
}

/**
 * Hugging Face's `only_first` / `only_second` truncation (the `tokenizers` library's
 * `truncate_encodings`): the named side gives up every token over `budget`, and must keep at least
 * one; a single text has no second side, so `only_second` cannot shorten it (an error when it is
 * too long, as in Hugging Face).
 */
function onlyOneSide<T>(strategy: 'only_first' | 'only_second', a: T[], b: T[] | null, budget: number, where: { caller: string; index: number; maxLength: number }): [T[], T[] | null] {
  const excess = a.length + (b?.length ?? 0) - budget;
  if (excess <= 0) return [a, b];
  const side = strategy === 'only_first' ? a : b;
  const name = strategy === 'only_first' ? 'first' : 'second';
  const fail = (received: string): never => {
    throw new InvalidArgumentError({
      caller: where.caller,
      argument: `texts[${where.index}]`,
      expected: `a ${name} sequence that '${strategy}' truncation can shorten to fit maxLength = ${where.maxLength} (it must keep at least one token)`,
      received,
      hint: "Use truncation: 'longest_first' (the default), or a larger maxLength.",
    });
  };
  if (side === null) return fail(`a single text of ${a.length} tokens, ${excess} over the room for text; it has no second sequence`);
  if (side.length <= excess) return fail(`${excess} tokens to remove, and the ${name} sequence has ${side.length}`);
  const kept = side.slice(0, side.length - excess);
  return strategy === 'only_first' ? [kept, b] : [a, kept];
}

/**
 * Hugging Face's `longest_first` truncation of a pair to `budget` tokens, as the `tokenizers`
 * library does it (checked on every pair of lengths up to 29 for several budgets): the shorter
 * side keeps what fits if it takes at most half, the longer gets the rest; otherwise each gets
 * half and the longer side the odd token. Lengths are compared after capping them at `maxLength`
 * (so two sides longer than `maxLength` count as equal: the second gets the odd token).
 */
export function longestFirst<T>(a: readonly T[], b: readonly T[], budget: number, maxLength = Infinity): [T[], T[]] {
  if (!Array.isArray(a) || !Array.isArray(b)) throw new InvalidArgumentError({ caller: 'longestFirst', argument: Array.isArray(a) ? 'b' : 'a', expected: 'a list of tokens or ids', received: describeValue(Array.isArray(a) ? b : a) });
  for (const [argument, side] of [['a', a], ['b', b]] as const) {
    for (let i = 0; i < side.length; i++) if (!(i in side)) throw new InvalidArgumentError({ caller: 'longestFirst', argument, expected: 'a list of tokens or ids without holes', received: `a sparse array (no item at index ${i})` });
  }
  if (!Number.isInteger(budget) || budget < 0) throw new InvalidArgumentError({ caller: 'longestFirst', argument: 'budget', expected: 'a non-negative integer', received: describeValue(budget) });
  if (!(maxLength === Infinity || (Number.isInteger(maxLength) && maxLength >= 0))) throw new InvalidArgumentError({ caller: 'longestFirst', argument: 'maxLength', expected: 'a non-negative integer or Infinity', received: describeValue(maxLength) });
  if (a.length + b.length <= budget) return [[...a], [...b]];
  const swap = Math.min(a.length, maxLength) > Math.min(b.length, maxLength);
  let short = Math.min(swap ? b.length : a.length, maxLength);
  let long = short > budget ? short : Math.max(short, budget - short);
  if (short + long > budget) {
    short = Math.floor(budget / 2);
    long = short + (budget % 2);
  }
  const [first, second] = swap ? [long, short] : [short, long];
  return [a.slice(0, first), b.slice(0, second)];
}
