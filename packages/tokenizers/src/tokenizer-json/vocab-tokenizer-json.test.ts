import { describe, expect, it } from 'vitest';
import { loadTokenizer } from '../load-tokenizer.js';
import { tokenizerJsonFromVocab } from './vocab-tokenizer-json.js';

describe('tokenizerJsonFromVocab', () => {
  it('gives a token listed twice its last id, as transformers does', async () => {
    const vocab = '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\nhello\n';
    // transformers 5.17 BertTokenizer(vocab.txt)('hello world') and tokenizers' WordPiece.from_file: [2, 7, 6, 3]
    expect((tokenizerJsonFromVocab(vocab)['model'] as { vocab: Record<string, number> }).vocab['hello']).toBe(7);
    const tokenizer = await loadTokenizer({ files: { 'vocab.txt': vocab } });
    expect(tokenizer.encode(['hello world']).inputIds[0]).toEqual([2, 7, 6, 3]);
  });
});
