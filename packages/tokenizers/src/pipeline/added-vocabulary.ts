import { InvalidArgumentError } from '@attnkit/errors';
import type { TokenizerModel } from '../models/tokenizer-model.js';
import type { Normalizer } from '../normalizers/create-normalizer.js';
import { slicePiece, type Piece } from '../pre-tokenizers/split-pieces.js';

/** An entry of tokenizer.json `added_tokens` (ids and contents already checked by `checkTokenizerJson`). */
interface AddedToken {
  readonly content: string;
  readonly singleWord: boolean;
  readonly lstrip: boolean;
  readonly rstrip: boolean;
  readonly normalized: boolean;
  readonly special: boolean;
}

/** A run of the text: an added token (`id`) or text for the pre-tokenizer and model; `fromStart` as a pre-token's ({@link Piece}). */
export interface Section extends Piece {
  readonly id?: number;
}

interface TrieNode {
  id: number;
  readonly next: Map<string, TrieNode>;
}

const WORD_BEFORE = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]$/u;
const WORD_AFTER = /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;
/** White_Space characters are all in the BMP: one UTF-16 unit each. */
const SPACE = /^\p{White_Space}$/u;

/**
 * The added tokens of a tokenizer.json as the Rust `tokenizers` library keeps them (its
 * `AddedVocabulary`). Ids are the library's, not the file's: a token already in the vocabulary
 * keeps its id, a new one gets the next id from the model's size. Tokens with `normalized: false`
 * are found in the raw text, the others in the normalized text (as their normalized form);
 * `single_word`, `lstrip` and `rstrip` behave as in the library (Unicode `\w` and whitespace).
 *
 * @example
 * const added = new AddedVocabulary(json.added_tokens, model, normalizer, 'Tokenizer');
 * added.split('Hi [MASK]!', normalizer); // sections 'Hi ', '[MASK]' (its id), '!'
 */
export class AddedVocabulary {
  readonly #ids = new Map<string, number>();
  readonly #tokens = new Map<number, AddedToken>();
  readonly #normalizedForm = new Map<number, string>();
  readonly #special = new Set<string>();
  readonly #raw: TrieNode = { id: -1, next: new Map() };
  readonly #normalizedTrie: TrieNode = { id: -1, next: new Map() };

  constructor(entries: unknown, model: TokenizerModel, normalizer: Normalizer | undefined, caller: string) {
    const list = Array.isArray(entries) ? entries : [];
    let nextId = model.size;
    list.forEach((entry: Record<string, unknown>, i) => {
      const flag = (name: string): boolean => {
        const value = entry[name];
        if (typeof value !== 'boolean') throw new InvalidArgumentError({ caller, argument: `tokenizer.json added_tokens[${i}].${name}`, expected: 'a boolean (the tokenizers library requires every flag)', received: JSON.stringify(value) ?? String(value) });
        return value;
      };
      const token: AddedToken = { content: entry['content'] as string, singleWord: flag('single_word'), lstrip: flag('lstrip'), rstrip: flag('rstrip'), normalized: flag('normalized'), special: flag('special') };
      if (token.content === '') return;
      const known = this.#ids.get(token.content);
      const previous = known === undefined ? undefined : this.#tokens.get(known);
      if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(token)) return;
      let id = known ?? model.tokenToId(token.content);
      if (id === undefined) id = nextId++;
      if (token.normalized && normalizer !== undefined) {
        const form = normalizer(token.content);
        if (form !== token.content) this.#normalizedForm.set(id, form);
      }
      this.#ids.set(token.content, id);
      if (token.special) this.#special.add(token.content);
      this.#tokens.set(id, token);
    });
    for (const [id, token] of this.#tokens) {
      let node = token.normalized ? this.#normalizedTrie : this.#raw;
      const pattern = token.normalized ? (this.#normalizedForm.get(id) ?? token.content) : token.content;
      for (let k = 0; k < pattern.length; k++) {
        const unit = pattern[k] as string;
        let child = node.next.get(unit);
        if (child === undefined) node.next.set(unit, (child = { id: -1, next: new Map() }));
        node = child;
      }
      node.id = id;
    }
  }

  /** The id of an added token's content. */
  tokenToId(content: string): number | undefined {
    return this.#ids.get(content);
  }

  /** The token an id decodes to: the added token's content, or its normalized form (as the library decodes it). */
  idToToken(id: number): string | undefined {
    return this.#normalizedForm.get(id) ?? this.#tokens.get(id)?.content;
  }

  /** Whether `token` is the content of a special added token. */
  isSpecial(token: string): boolean {
    return this.#special.has(token);
  }

  /** The special added tokens' contents. */
  get specials(): ReadonlySet<string> {
    return this.#special;
  }

  /** The text as sections: added tokens found in the raw text, then in each normalized remaining run; empty runs dropped. */
  split(text: string, normalizer: Normalizer | undefined): Section[] {
    const first = text.length > 0 && (text.codePointAt(0) ?? 0) > 0xffff ? 2 : Math.min(1, text.length); // the first character is the one at offset 0
    return this.#find({ text, fromStart: first }, this.#raw).flatMap((section): Section[] => {
      if (section.id !== undefined) return [section];
      if (normalizer === undefined) return this.#find(section, this.#normalizedTrie);
      return this.#find({ text: normalizer(section.text), fromStart: normalizer.fromStart(section.text, section.fromStart) }, this.#normalizedTrie);
    });
  }

  /** Sections of `text` around the added tokens of `trie`, leftmost-longest first (the library's aho-corasick matching). */
  #find(piece: Piece, trie: TrieNode): Section[] {
    const { text } = piece;
    const sections: Section[] = [];
    const push = (start: number, end: number, id?: number) => {
      if (end > start) sections.push({ ...slicePiece(piece, start, end), ...(id === undefined ? {} : { id }) });
    };
    let done = 0;
    for (let i = 0; i < text.length; ) {
      let node: TrieNode | undefined = trie;
      let id = -1;
      let end = i;
      for (let j = i; j < text.length; j++) {
        node = node.next.get(text[j] as string);
        if (node === undefined) break;
        if (node.id >= 0) [id, end] = [node.id, j + 1];
      }
      if (id < 0) {
        i++;
        continue;
      }
      const token = this.#tokens.get(id) as AddedToken;
      if (token.singleWord && (WORD_BEFORE.test(text.slice(Math.max(0, i - 2), i)) || WORD_AFTER.test(text.slice(end, end + 2)))) {
        i = end; // not a word of its own: the library skips this match and goes on after it
        continue;
      }
      let start = i;
      let stop = end;
      if (token.lstrip) while (start > done && SPACE.test(text[start - 1] as string)) start--;
      if (token.rstrip) while (stop < text.length && SPACE.test(text[stop] as string)) stop++;
      push(done, start);
      push(start, stop, id);
      done = stop;
      i = stop;
    }
    push(done, text.length);
    return sections;
  }
}
