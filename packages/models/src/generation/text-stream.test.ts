import { describe, expect, it } from 'vitest';
import { loadTokenizer, type Tokenizer } from '@attnkit/tokenizers';
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
});
