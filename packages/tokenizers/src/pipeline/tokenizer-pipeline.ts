import { createDecoder, type Decoder } from '../decoders/create-decoder.js';
import { createModel } from '../models/create-model.js';
import type { Token, TokenizerModel } from '../models/tokenizer-model.js';
import { createNormalizer, type Normalizer } from '../normalizers/create-normalizer.js';
import { createPostProcessor, type Encoding, type PostProcessor } from '../post-processors/create-post-processor.js';
import { createPreTokenizer } from '../pre-tokenizers/create-pre-tokenizer.js';
import type { PreTokenizer } from '../pre-tokenizers/split-pieces.js';
import { ComponentConfig } from '../tokenizer-json/component-config.js';
import { AddedVocabulary } from './added-vocabulary.js';

/** A component of the file, built when the key is there and not null. */
function optional<T>(json: Record<string, unknown>, key: string, caller: string, build: (config: ComponentConfig) => T): T | undefined {
  const value = Object.hasOwn(json, key) ? json[key] : undefined;
  return value === undefined || value === null ? undefined : build(ComponentConfig.of(value, key, caller));
}

/**
 * The whole pipeline of a tokenizer.json as the Rust `tokenizers` library runs it: added tokens
 * split off (raw, then normalized), the normalizer, the pre-tokenizer, the model on each pre-token,
 * the post-processor on one text or a pair, and the decoder. Every component is attnkit's own
 * (`normalizers/`, `pre-tokenizers/`, `models/`, `post-processors/`, `decoders/`); a component it
 * cannot run exactly is refused when the pipeline is built, by an `InvalidArgumentError` naming its
 * type and its place in the file. The file is assumed checked by `checkTokenizerJson`.
 *
 * @example
 * const pipeline = new TokenizerPipeline(JSON.parse(text), 'Tokenizer');
 * pipeline.encode('Hello world'); // [{ id, token }, ...] without special tokens
 */
export class TokenizerPipeline {
  readonly normalizer: Normalizer | undefined;
  readonly preTokenizer: PreTokenizer | undefined;
  readonly model: TokenizerModel;
  readonly postProcessor: PostProcessor | undefined;
  readonly decoder: Decoder | undefined;
  readonly added: AddedVocabulary;

  constructor(json: Record<string, unknown>, caller: string) {
    this.normalizer = optional(json, 'normalizer', caller, createNormalizer);
    this.preTokenizer = optional(json, 'pre_tokenizer', caller, createPreTokenizer);
    this.model = createModel(ComponentConfig.of(json['model'], 'model', caller, false));
    this.postProcessor = optional(json, 'post_processor', caller, createPostProcessor);
    this.decoder = optional(json, 'decoder', caller, createDecoder);
    this.added = new AddedVocabulary(json['added_tokens'], this.model, this.normalizer, caller);
  }

  /** The tokens of one text, without special tokens (the library's `encode(text, add_special_tokens=False)`). */
  encode(text: string): Token[] {
    const out: Token[] = [];
    for (const section of this.added.split(text, this.normalizer)) {
      if (section.id !== undefined) {
        out.push({ id: section.id, token: this.added.idToToken(section.id) ?? section.text });
        continue;
      }
      const pieces = this.preTokenizer === undefined ? [section] : this.preTokenizer([section]);
      for (const piece of pieces) for (const token of this.model.tokenize(piece.text)) out.push(token);
    }
    return out;
  }

  /** One text's tokens (`b` null) or a pair's through the post-processor (special tokens, type ids). */
  postProcess(a: readonly Token[], b: readonly Token[] | null): Encoding {
    const encodings = (b === null ? [a] : [a, b]).map((tokens, i): Encoding => ({ ids: tokens.map((t) => t.id), tokens: tokens.map((t) => t.token), typeIds: tokens.map(() => i) }));
    const processed = this.postProcessor === undefined ? encodings : this.postProcessor(encodings);
    return { ids: processed.flatMap((e) => e.ids), tokens: processed.flatMap((e) => e.tokens), typeIds: processed.flatMap((e) => e.typeIds) };
  }

  /** The id of a token: an added token's, else the model's. */
  tokenToId(token: string): number | undefined {
    return this.added.tokenToId(token) ?? this.model.tokenToId(token);
  }

  /** The token of an id: an added token's (its normalized form where it has one), else the model's. */
  idToToken(id: number): string | undefined {
    return this.added.idToToken(id) ?? this.model.idToToken(id);
  }

  /** Text from ids as the library's `decode`: ids outside the vocabulary dropped, special tokens too with `skipSpecialTokens`, then the decoder (else tokens joined by spaces). */
  decode(ids: readonly number[], skipSpecialTokens: boolean): string {
    const tokens: string[] = [];
    for (const id of ids) {
      const token = this.idToToken(id);
      if (token !== undefined && !(skipSpecialTokens && this.added.isSpecial(token))) tokens.push(token);
    }
    return this.decoder === undefined ? tokens.join(' ') : this.decoder(tokens).join('');
  }
}
