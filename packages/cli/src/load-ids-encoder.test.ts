import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tensor2d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { leaksOf } from '@attnkit/test-utils';
import { loadIdsEncoder, type IdsEncoder } from './load-ids-encoder.js';
import { encoderSentenceModel } from './encoder-sentence-model.js';

const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const IDS = [[2, 448, 519, 3, 0], [2, 500, 34, 274, 3]];
const MASK = [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]];

/** A folder of the bert family fixture's config.json and model.safetensors only: no tokenizer. */
function weightsOnlyFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'attnkit-ids-')), 'bert');
  mkdirSync(folder);
  for (const file of ['config.json', 'model.safetensors']) copyFileSync(join(fixtures, 'families', 'bert', file), join(folder, file));
  return folder;
}

/** The sentence embeddings of IDS through `model`, as numbers. */
async function embed(model: IdsEncoder): Promise<number[]> {
  const out = model.encoder.forward({ inputIds: IDS, attentionMask: MASK });
  const mask = tensor2d(MASK, undefined, 'int32');
  const sentences = model.sentenceEmbeddings(out.lastHiddenState, mask);
  const values = Array.from(await sentences.data());
  [out.lastHiddenState, out.poolerOutput, mask, sentences].forEach((t) => t?.dispose());
  return values;
}

describe('loadIdsEncoder', () => {
  it.each([
    ['a plain folder (mean pooling)', join(fixtures, 'families', 'bert'), 'bert'],
    ['a folder with Pooling and Normalize', join(fixtures, 'sentence', 'mpnet-mean-normalize'), 'mpnet'],
    ['a folder with Dense modules (loaded whole)', join(fixtures, 'sentence', 'bert-dense'), 'bert'],
  ])('embeds ids of %s as SentenceEncoder.sentenceEmbeddings does (1e-6)', async (_, folder) => {
    await useBackend('cpu');
    const model = await loadIdsEncoder(folder);
    const reference = await loadSentenceEncoder(folder);
    try {
      const [ours, theirs] = [await embed(model), await embed(encoderSentenceModel(reference, 'test'))];
      expect(ours).toHaveLength(theirs.length);
      expect(maxDifference(ours, theirs).maxAbsDiff).toBeLessThanOrEqual(1e-6);
    } finally {
      model.dispose();
      reference.dispose();
    }
  }, 60_000);

  it('loads a folder of only config.json and model.safetensors (no tokenizer), which loadSentenceEncoder refuses', async () => {
    await useBackend('cpu');
    const folder = weightsOnlyFolder();
    await expect(loadSentenceEncoder(folder)).rejects.toThrow(/tokenizer\.json/);
    const model = await loadIdsEncoder(folder);
    try {
      expect(await embed(model)).toHaveLength(2 * 32);
      expect(await leaksOf(() => embed(model))).toEqual({ tensors: 0, bytes: 0 });
    } finally {
      model.dispose();
    }
  }, 60_000);
});
