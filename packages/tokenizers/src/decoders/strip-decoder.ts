import { InvalidArgumentError } from '@attnkit/errors';

/**
 * The `Strip` decoder of the Rust `tokenizers` library: removes up to `start` leading and `stop`
 * trailing `content` characters from each token. A token shorter than `stop`, or that would be cut
 * past itself, makes the library panic; here it is an `InvalidArgumentError`.
 *
 * @example
 * stripDecoder(' ', 1, 0)([' hello', ' world']); // ['hello', 'world']
 */
export function stripDecoder(content: string, start: number, stop: number): (tokens: readonly string[]) => string[] {
  return (tokens) =>
    tokens.map((token) => {
      const chars = [...token];
      let from = 0;
      for (let i = 0; i < Math.min(start, chars.length) && chars[i] === content; i++) from = i + 1;
      let to = chars.length;
      for (let i = 0; i < stop; i++) {
        const index = chars.length - i - 1;
        if (index < 0) throw new InvalidArgumentError({ caller: 'Tokenizer.decode', argument: 'ids', expected: `tokens of at least ${stop} characters for the Strip decoder (the tokenizers library panics on shorter ones)`, received: `the token ${JSON.stringify(token)}` });
        if (chars[index] !== content) break;
        to = index;
      }
      if (from > to) throw new InvalidArgumentError({ caller: 'Tokenizer.decode', argument: 'ids', expected: 'tokens the Strip decoder does not cut past themselves (the tokenizers library panics)', received: `the token ${JSON.stringify(token)}` });
      return chars.slice(from, to).join('');
    });
}
