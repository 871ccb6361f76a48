import { describe, expect, it } from 'vitest';
import { memory } from '@tensorflow/tfjs-core';
import { maxDifference, useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';
import { embeddedModelFolder } from '../embedded-model.js';
import { startEmbedder } from './embedder.js';

const settings = { model: embeddedModelFolder(), backend: 'cpu' as const, threads: 1, batchSize: 2, normalize: true, promptName: null };

describe('startEmbedder', () => {
  it('embeds chunks in this thread, one after another, as SentenceEncoder.encode does; stop() frees the model', async () => {
    await useBackend('cpu');
    const before = memory().numTensors;
    const embedder = await startEmbedder(settings);
    expect(embedder.dim).toBe(64);
    const [first, second] = await Promise.all([embedder.embed(['a cat sat', 'on the mat', 'markets fell']), embedder.embed(['attention'])]); // asked together, run in turn
    await embedder.stop();
    const model = await loadSentenceEncoder(settings.model);
    const expected = await model.encode(['a cat sat', 'on the mat', 'markets fell', 'attention'], { normalize: true });
    expect([first!.length, second!.length]).toEqual([3 * 64, 64]);
    expect(maxDifference(Float32Array.from([...first!, ...second!]), (await expected.data()) as Float32Array).maxAbsDiff).toBeLessThan(1e-6);
    expected.dispose();
    model.dispose();
    expect(memory().numTensors).toBe(before);
  }, 60_000);
});
