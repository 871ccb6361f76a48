import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import { sentenceFolderFiles } from '../checkpoint/sentence-folder-files.js';
import { sentenceEncoderOf } from './sentence-encoder-of.js';
import { trainSentenceEncoder } from './train-sentence-encoder.js';

const fixtures = decodeURIComponent(new URL('../../../../tooling/reference/fixtures/', import.meta.url).pathname);
const QWEN = `${fixtures}sentence-decoders/qwen3-lasttoken`;
let decoder: SentenceEncoder;
beforeAll(async () => {
  await useBackend('cpu');
  decoder = await loadSentenceEncoder(QWEN);
});
afterAll(() => decoder.dispose());

describe('sentenceEncoderOf', () => {
  it('gives the encoder of an encoder sentence model', async () => {
    const bert = await loadSentenceEncoder(`${fixtures}sentence/bert-cls`);
    expect(sentenceEncoderOf(bert, 'test', 'train')).toBe(bert.encoder);
    bert.dispose();
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['trainSentenceEncoder', () => trainSentenceEncoder(decoder, [{ anchor: 'a', positive: 'b' }], { loss: 'multiple-negatives-ranking', batchSize: 2, epochs: 1 }), 'train'],
    ['saveSentenceFolder', () => sentenceFolderFiles(decoder, QWEN), 'save'],
  ])('%s refuses a decoder embedding model with a typed error', async (caller, call, action) => {
    const error = await call().catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(`${caller}: 'model' must be a sentence model whose Transformer is an encoder (BERT, MPNet, XLM-R, ...): attnkit does not ${action} decoder embedding models yet; received one whose Transformer is a qwen3 decoder.`);
  });
});
