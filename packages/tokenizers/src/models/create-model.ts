import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { bpe } from './bpe.js';
import type { TokenizerModel } from './tokenizer-model.js';
import { unigram } from './unigram.js';
import { wordLevel } from './word-level.js';
import { wordPiece } from './word-piece.js';

/** The model types of tokenizers 0.23. */
export const MODEL_TYPES = ['WordPiece', 'BPE', 'Unigram', 'WordLevel'] as const;
const MAX = 2 ** 31 - 1;

/** A file without `model.type` is read as the first model its fields make (the library's untagged order: BPE, WordPiece, WordLevel, Unigram). */
function modelType(config: ComponentConfig): string {
  if (config.fields.has('type')) return config.type;
  const { fields } = config;
  if (Array.isArray(fields.get('vocab'))) return 'Unigram';
  if (fields.has('merges')) return 'BPE';
  if (['unk_token', 'continuing_subword_prefix', 'max_input_chars_per_word'].every((f) => fields.has(f))) return 'WordPiece';
  if (fields.has('unk_token')) return 'WordLevel';
  return config.fail('type', `one of ${MODEL_TYPES.join(', ')}, or the fields of one`, undefined);
}

/** BPE merges as pairs: all `"a b"` strings (`#version` lines skipped) or all `["a", "b"]` pairs, each part and their merge in the vocabulary. */
function bpeMerges(config: ComponentConfig, vocab: Record<string, unknown>, prefix: string | null): [string, string][] {
  const raw = config.list('merges');
  const strings = raw.every((m) => typeof m === 'string');
  if (!strings && !raw.every((m) => Array.isArray(m) && m.length === 2 && m.every((p) => typeof p === 'string'))) {
    config.fail('merges', 'a list of "a b" strings or a list of ["a", "b"] pairs (not both)', raw);
  }
  const merges = strings ? (raw as string[]).filter((m) => !m.startsWith('#version')).map((m) => m.split(' ')) : (raw as string[][]);
  const has = (token: string) => Object.hasOwn(vocab, token);
  merges.forEach((merge, i) => {
    if (merge.length !== 2) config.fail(`merges[${i}]`, 'two tokens separated by one space', merge.join(' '));
    const [a = '', b = ''] = merge;
    const missing = [a, b, a + b.slice(prefix?.length ?? 0)].find((t) => !has(t));
    if (missing !== undefined) config.fail(`merges[${i}]`, 'tokens of the vocabulary that merge into a token of the vocabulary (the tokenizers library refuses others)', merge, `${JSON.stringify(missing)} is not in model.vocab.`);
  });
  return merges as [string, string][];
}

/**
 * Builds the model of a tokenizer.json (`model`, already checked by `checkTokenizerJson`), as the
 * Rust `tokenizers` library runs it. Fields the library requires must be there; BPE `dropout` above
 * 0 (merges skipped at random, so no ids to reproduce) and merges the library would refuse are an
 * `InvalidArgumentError` naming the field.
 *
 * @example
 * createModel(ComponentConfig.of(json.model, 'model', 'Tokenizer', false)).tokenize('hello');
 */
export function createModel(config: ComponentConfig): TokenizerModel {
  const type = modelType(config);
  switch (type) {
    case 'WordPiece':
      return wordPiece({ vocab: config.record('vocab'), unkToken: config.string('unk_token'), continuingSubwordPrefix: config.string('continuing_subword_prefix'), maxInputCharsPerWord: config.integer('max_input_chars_per_word', 0, Number.MAX_SAFE_INTEGER) });
    case 'WordLevel':
      return wordLevel(config.record('vocab'), config.string('unk_token'));
    case 'BPE': {
      const vocab = config.record('vocab');
      const dropout = config.fields.get('dropout') ?? null;
      if (!(dropout === null || dropout === 0)) {
        config.fail('dropout', 'null or 0 (dropout skips merges at random, so the ids of a text cannot be reproduced)', dropout, 'Set "dropout": null for inference.');
      }
      const continuingSubwordPrefix = config.nullableString('continuing_subword_prefix', null);
      return bpe({
        vocab,
        merges: bpeMerges(config, vocab, continuingSubwordPrefix),
        unkToken: config.nullableString('unk_token', null),
        continuingSubwordPrefix,
        endOfWordSuffix: config.nullableString('end_of_word_suffix', null),
        fuseUnk: config.boolean('fuse_unk', false),
        byteFallback: config.boolean('byte_fallback', false),
        ignoreMerges: config.boolean('ignore_merges', false),
      });
    }
    case 'Unigram': {
      const vocab = config.list('vocab') as [string, number][];
      const unkId = config.fields.get('unk_id') ?? null;
      if (unkId !== null && !(Number.isInteger(unkId) && (unkId as number) >= 0 && (unkId as number) < vocab.length && (unkId as number) <= MAX)) config.fail('unk_id', `null or an index into the vocabulary (0 to ${vocab.length - 1})`, unkId);
      return unigram({ vocab, unkId: unkId as number | null, byteFallback: config.boolean('byte_fallback', false) });
    }
    default:
      return config.unknownType('model', MODEL_TYPES);
  }
}
