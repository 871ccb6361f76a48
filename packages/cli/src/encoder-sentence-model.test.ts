import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { thrown } from '@attnkit/test-utils';
import { encoderSentenceModel } from './encoder-sentence-model.js';

const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);

describe('encoderSentenceModel', () => {
  it('keeps an encoder folder, and disposes and refuses a decoder folder', async () => {
    await useBackend('cpu');
    const bert = await loadSentenceEncoder(join(fixtures, 'sentence', 'bert-cls'));
    expect(encoderSentenceModel(bert, 'attnkit encode')).toBe(bert);
    bert.dispose();
    const before = memory().numTensors;
    const qwen = await loadSentenceEncoder(join(fixtures, 'sentence-decoders', 'qwen3-lasttoken'));
    const error = thrown(() => encoderSentenceModel(qwen, 'attnkit encode'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("attnkit encode: '--model' must be a folder whose Transformer is an encoder (BERT, MPNet, XLM-R, ...); received a folder whose Transformer is a qwen3 decoder. attnkit embed embeds texts with a decoder embedding model.");
    expect(memory().numTensors).toBe(before);
  });
});
