import { describe, expect, it } from 'vitest';
import { loadTokenizer, type Tokenizer } from '@attnkit/tokenizers';
import type { GenerationTokenizer } from './generate-options.js';
import { TextStream } from './text-stream.js';

// The fixture tokenizers of tooling/reference/fixtures/decoders: GPT-2's byte-level BPE (a character is
// several byte pieces when the vocabulary has no merge for it) and Llama's SentencePiece BPE with byte
// fallback (<0xF0> <0x9F> <0x98> <0x80> for 😀: its vocabulary has Latin letters only).
const folder = (name: string) => new URL(`../../../../tooling/reference/fixtures/decoders/${name}/`, import.meta.url).pathname;
const TEXT = 'ça coûte très cher 😀 我们 привет 👍🏽!';

describe.each(['gpt2', 'llama'])('TextStream with the %s fixture tokenizer', (name) => {
  let tokenizer: Tokenizer;
  const ids = () => tokenizer.encode([TEXT], { padding: false, truncation: false }).inputIds[0]!;

  it('returns each character once it is complete: the pieces are the decoded text, none holds U+FFFD, some tokens wait', async () => {
    tokenizer = await loadTokenizer(folder(name));
    const stream = new TextStream(tokenizer);
    const pieces = ids().map((id) => stream.push(id));
    expect(pieces.join('') + stream.flush()).toBe(tokenizer.decode(ids()));
    expect(pieces.filter((p) => p.includes('\uFFFD'))).toEqual([]);
    expect(pieces.filter((p) => p === '').length, 'tokens inside a character').toBeGreaterThan(3);
    expect(pieces.join('')).toBe(TEXT);
  });

  it('continues a prompt: the pieces of the second half are the whole text past the first half, spaces included', () => {
    const all = ids();
    let half = Math.floor(all.length / 2);
    while (tokenizer.decode(all.slice(0, half)).endsWith('\uFFFD')) half++; // a prompt that ends between characters
    const stream = new TextStream(tokenizer, all.slice(0, half));
    const pieces = all.slice(half).map((id) => stream.push(id)).join('') + stream.flush();
    expect(tokenizer.decode(all.slice(0, half)) + pieces).toBe(tokenizer.decode(all));
  });

  it('gives what it holds back on flush, an incomplete character as U+FFFD', () => {
    const pieces = tokenizer.encode(['😀'], { padding: false, truncation: false }).inputIds[0]!.filter((id) => tokenizer.decode([id]).includes('\uFFFD'));
    expect(pieces.length, 'pieces inside the character').toBeGreaterThan(1);
    const stream = new TextStream(tokenizer);
    expect(stream.push(pieces[0]!)).toBe('');
    expect(stream.flush()).toContain('\uFFFD');
    expect(stream.flush()).toBe('');
  });

  it('joins to the decoded text for any ids, invalid UTF-8 included: 1 000 seeded sequences, mostly byte pieces and special tokens', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let vocab = 0;
    while (tokenizer.idToToken(vocab) !== undefined) vocab++; // the fixture vocabularies are dense
    const bytes = Array.from({ length: vocab }, (_, id) => id).filter((id) => tokenizer.isByteToken(id) || tokenizer.decode([id]).includes('\uFFFD'));
    expect(bytes.length, 'byte pieces in the vocabulary').toBeGreaterThan(100);
    const special = Array.from({ length: vocab }, (_, id) => id).filter((id) => tokenizer.isSpecialToken(tokenizer.idToToken(id) ?? ''));
    let held = 0;
    for (let trial = 0; trial < 1000; trial++) {
      const ids = Array.from({ length: 14 }, () => { const r = random(); return r < 0.6 ? bytes[Math.floor(random() * bytes.length)]! : r < 0.7 && special.length > 0 ? special[Math.floor(random() * special.length)]! : Math.floor(random() * vocab); });
      const stream = new TextStream(tokenizer);
      const pieces = ids.map((id) => stream.push(id));
      held += pieces.filter((p) => p === '').length;
      expect(pieces.join('') + stream.flush(), JSON.stringify(ids)).toBe(tokenizer.decode(ids));
    }
    expect(held).toBeGreaterThan(0);
  });

  it('holds a byte-fallback run until it ends, since a later byte can make the whole run U+FFFD', () => {
    const L = tokenizer.tokenToId('<0x4C>');
    if (name !== 'llama') return expect(L).toBeUndefined(); // byte-level BPE has no <0xXX> pieces
    const [invalid, plain] = [tokenizer.tokenToId('<0xFC>')!, tokenizer.encode(['j'], { padding: false, truncation: false }).inputIds[0]!.at(-1)!];
    expect([tokenizer.isByteToken(L!), tokenizer.isByteToken(plain)]).toEqual([true, false]);
    const stream = new TextStream(tokenizer);
    expect([stream.push(L!), stream.push(invalid)]).toEqual(['', '']); // 'L' alone would read as text, but <0x4C> <0xFC> is not UTF-8
    expect(stream.push(plain)).toBe(tokenizer.decode([L!, invalid, plain]));
    expect(tokenizer.decode([L!, invalid])).toBe('\uFFFD\uFFFD');
  });
});

describe('TextStream refuses', () => {
  const decoder = { decode: (ids: readonly number[]) => ids.join(' ') } as unknown as GenerationTokenizer; // only decode is read
  it('a context that is no list of integers, a sparse one included (its hole is no id)', () => {
    expect(() => new TextStream(decoder, [1, , 3] as number[])).toThrow(/TextStream: 'context' must be the prompt ids \(integers\)/); // eslint-disable-line no-sparse-arrays
    expect(() => new TextStream(decoder, null as never)).toThrow(/'context'/);
    expect(new TextStream(decoder, [1, 2]).push(3)).toBe(' 3');
  });
});
