import { checkBoolean, checkObject, checkOptionKeys, describeValue, InvalidArgumentError } from '@attnkit/errors';

/** The options of a `tokenizer_config.json` that shape a BERT tokenizer. */
export interface WordPieceOptions {
  /** `do_lower_case` (default true, as bert-base-uncased). */
  readonly lowercase?: boolean;
  /** `strip_accents`; default: follow `lowercase` (as Hugging Face does). */
  readonly stripAccents?: boolean | null;
  /** `tokenize_chinese_chars` (default true). */
  readonly handleChineseChars?: boolean;
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/**
 * Builds the `tokenizer.json` a Hugging Face BERT WordPiece tokenizer would have for a `vocab.txt`
 * (one token per line, id = line number; a token listed twice gets its last id, as Hugging Face reads
 * it), for folders that ship only the vocabulary. The result
 * loads into `@huggingface/tokenizers` like any `tokenizer.json`.
 *
 * @example
 * const json = tokenizerJsonFromVocab(await readFile('vocab.txt', 'utf8'), { lowercase: true });
 */
export function tokenizerJsonFromVocab(vocabText: string, options: WordPieceOptions = {}): Record<string, unknown> {
  if (typeof vocabText !== 'string') throw new InvalidArgumentError({ caller: 'tokenizerJsonFromVocab', argument: 'vocab.txt', expected: 'the text of vocab.txt', received: describeValue(vocabText) });
  checkObject(options, { caller: 'tokenizerJsonFromVocab', argument: 'options', expected: 'an object { lowercase?, stripAccents?, handleChineseChars? }' });
  checkOptionKeys(options, ['lowercase', 'stripAccents', 'handleChineseChars'], 'tokenizerJsonFromVocab');
  checkBoolean(options.lowercase, { caller: 'tokenizerJsonFromVocab', argument: 'lowercase', fallback: true });
  if (options.stripAccents !== null) checkBoolean(options.stripAccents, { caller: 'tokenizerJsonFromVocab', argument: 'stripAccents', fallback: false });
  checkBoolean(options.handleChineseChars, { caller: 'tokenizerJsonFromVocab', argument: 'handleChineseChars', fallback: true });
  const tokens = vocabText.split(/\r?\n/);
  if (tokens[tokens.length - 1] === '') tokens.pop();
  const vocab: Record<string, number> = Object.create(null) as Record<string, number>;
  tokens.forEach((token, id) => {
    vocab[token] = id; // a token listed twice gets its last line's id, as transformers' load_vocab and WordPiece.from_file give
  });
  const missing = SPECIALS.filter((s) => !(s in vocab));
  if (missing.length > 0) {
    throw new InvalidArgumentError({ caller: 'tokenizerJsonFromVocab', argument: 'vocab.txt', expected: `the BERT special tokens ${SPECIALS.join(', ')}`, received: `a vocabulary of ${tokens.length} tokens without ${missing.join(', ')}` });
  }
  const lowercase = options.lowercase ?? true;
  const special = (id: string, type: number) => ({ SpecialToken: { id, type_id: type } });
  const sequence = (id: 'A' | 'B', type: number) => ({ Sequence: { id, type_id: type } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: options.handleChineseChars ?? true, strip_accents: options.stripAccents ?? null, lowercase },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
      pair: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0), sequence('B', 1), special('[SEP]', 1)],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [vocab[t]], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
