import { metaspacePrependScheme } from '../pre-tokenizers/create-pre-tokenizer.js';
import { tokenizerPattern } from '../regex/tokenizer-pattern.js';
import type { ComponentConfig } from '../tokenizer-json/component-config.js';
import { byteFallbackDecoder } from './byte-fallback-decoder.js';
import { byteLevelDecoder } from './byte-level-decoder.js';
import { ctcDecoder } from './ctc-decoder.js';
import { metaspaceDecoder } from './metaspace-decoder.js';
import { stripDecoder } from './strip-decoder.js';
import { wordPieceDecoder } from './word-piece-decoder.js';

/** A decoder (the library's `decode_chain`): tokens in, text pieces out, joined by the caller. */
export type Decoder = (tokens: readonly string[]) => string[];

/** The decoder types of tokenizers 0.23, every one run exactly. */
export const DECODER_TYPES = ['ByteLevel', 'WordPiece', 'Metaspace', 'BPEDecoder', 'CTC', 'Replace', 'Fuse', 'Strip', 'ByteFallback', 'Sequence'] as const;

/**
 * Builds the decoder of a tokenizer.json (`decoder`, or an entry of a `Sequence`), as the Rust
 * `tokenizers` library runs it: ByteLevel, WordPiece, Metaspace, BPEDecoder (the suffix becomes a
 * space, none after the last token), CTC, Replace (literal content), Fuse (one piece), Strip,
 * ByteFallback and Sequence (each in turn). An unknown type or a field the library would refuse is
 * an `InvalidArgumentError` naming the place in the file.
 *
 * @example
 * createDecoder(ComponentConfig.of({ type: 'Fuse' }, 'decoder', 'Tokenizer'))(['a', 'b']); // ['ab']
 */
export function createDecoder(config: ComponentConfig): Decoder {
  switch (config.type) {
    case 'ByteLevel':
      config.boolean('add_prefix_space');
      config.boolean('trim_offsets');
      return byteLevelDecoder;
    case 'WordPiece':
      return wordPieceDecoder(config.string('prefix'), config.boolean('cleanup'));
    case 'Metaspace':
      config.boolean('split', true);
      return metaspaceDecoder(config.character('replacement'), metaspacePrependScheme(config));
    case 'BPEDecoder': {
      const suffix = config.string('suffix');
      return (tokens) => tokens.map((token, i) => token.replaceAll(suffix, i === tokens.length - 1 ? '' : ' '));
    }
    case 'CTC':
      return ctcDecoder(config.string('pad_token'), config.string('word_delimiter_token'), config.boolean('cleanup'));
    case 'Replace': {
      const pattern = tokenizerPattern(config);
      const content = config.string('content');
      return (tokens) => tokens.map((token) => token.replace(pattern, () => content));
    }
    case 'Fuse':
      return (tokens) => [tokens.join('')];
    case 'Strip':
      return stripDecoder(config.character('content'), config.integer('start', 0, Number.MAX_SAFE_INTEGER), config.integer('stop', 0, Number.MAX_SAFE_INTEGER));
    case 'ByteFallback':
      return byteFallbackDecoder;
    case 'Sequence': {
      const steps = config.list('decoders').map((entry, i) => createDecoder(config.child('decoders', i, entry)));
      return (tokens) => steps.reduce<string[]>((out, step) => step(out), [...tokens]);
    }
    default:
      return config.unknownType('decoder', DECODER_TYPES);
  }
}
