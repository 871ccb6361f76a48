import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memory } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { loadCrossEncoder } from './load-cross-encoder.js';
import type { CrossEncoder } from './cross-encoder.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../tooling/reference/fixtures/rerank/${name}/`, import.meta.url));
let model: CrossEncoder;
const E = InvalidArgumentError;

beforeAll(async () => {
  await useBackend('cpu');
  model = await loadCrossEncoder(fixture('cross-encoders/bert'));
});
afterAll(() => model.dispose());

describe('CrossEncoder.predict and rank: what they refuse, and what they give for empty input', () => {
  it.each([
    ['one pair not wrapped in a list', ['a query', 'a document'], "CrossEncoder.predict: 'pairs[0]' must be a [string, string] pair; received string 'a query'. For one pair, pass [[first, second]], not [first, second]."],
    ['a pair of one text', [['only one']], `CrossEncoder.predict: 'pairs[0]' must be a [string, string] pair; received array ["only one"].`],
    ['a triple', [['a', 'b'], ['a', 'b', 'c']], `CrossEncoder.predict: 'pairs[1]' must be a [string, string] pair; received array ["a","b","c"].`],
    ['a number in a pair', [['a', 7]], `CrossEncoder.predict: 'pairs[0]' must be a [string, string] pair; received array ["a",7].`],
    ['a string', 'a query', "CrossEncoder.predict: 'pairs' must be a list of [string, string] pairs; received string 'a query'. For one pair, pass [[first, second]]."],
  ])('refuses %s', async (_, pairs, message) => {
    await expect(model.predict(pairs as never)).rejects.toThrow(E);
    await expect(model.predict(pairs as never)).rejects.toThrow(message);
  });

  it('refuses bad options, naming them', async () => {
    await expect(model.predict([['a', 'b']], { batchSize: 0 })).rejects.toThrow("CrossEncoder.predict: 'batchSize' must be an integer ≥ 1; received number 0.");
    await expect(model.predict([['a', 'b']], { activation: 'softmaxx' as never })).rejects.toThrow("CrossEncoder.predict: 'activation' must be 'identity', 'sigmoid', 'tanh', 'relu', 'softmax'; received string 'softmaxx'.");
    await expect(model.predict([['a', 'b']], { promptName: 'query' })).rejects.toThrow("CrossEncoder.predict: 'promptName' must be one of the folder's prompts (it has none); received string 'query'.");
    await expect(model.predict([['a', 'b']], { batchsize: 2 } as never)).rejects.toThrow(/batchsize/);
  });

  it('reads every null option as left out (as None in sentence-transformers), for predict and rank alike', async () => {
    const pairs: [string, string][] = [['a cat', 'a dog'], ['a cat', 'a car sat on a mat']];
    const nulls = { batchSize: null, activation: null, applySoftmax: null, promptName: null, prompt: null, signal: null } as never;
    const [plain, withNulls] = [await model.predict(pairs), await model.predict(pairs, nulls)];
    expect(Array.from(await withNulls.data())).toEqual(Array.from(await plain.data()));
    [plain, withNulls].forEach((t) => t.dispose());
    const ranked = await model.rank('a cat', ['a dog', 'a car'], { ...(nulls as object), topK: null, returnDocuments: null } as never);
    expect(ranked).toEqual(await model.rank('a cat', ['a dog', 'a car']));
    expect(ranked).toHaveLength(2);
  });

  it.each([
    ['topK 0', { topK: 0 }, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number 0."],
    ['a fractional topK', { topK: 2.5 }, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number 2.5."],
    ['topK Infinity', { topK: Infinity }, "CrossEncoder.rank: 'topK' must be an integer from 1 to 9007199254740991; received number Infinity."],
  ])('rank refuses %s', async (_, options, message) => {
    await expect(model.rank('q', ['a', 'b'], options)).rejects.toThrow(message);
  });

  it('rank refuses a query or documents that are not text', async () => {
    await expect(model.rank(['q'] as never, ['a'])).rejects.toThrow(`CrossEncoder.rank: 'query' must be a string; received array ["q"].`);
    await expect(model.rank('q', 'a' as never)).rejects.toThrow("CrossEncoder.rank: 'documents' must be a list of strings; received string 'a'.");
    await expect(model.rank('q', ['a', null] as never)).rejects.toThrow("CrossEncoder.rank: 'documents[1]' must be a string; received null.");
  });

  it('gives empty results for no pairs or documents, a topK past the documents gives them all, and an empty document is scored', async () => {
    const before = memory().numTensors;
    const none = await model.predict([]);
    expect(none.shape).toEqual([0]);
    none.dispose();
    expect(await model.rank('q', [])).toEqual([]);
    const all = await model.rank('How many people live in Berlin?', ['', 'Berlin'], { topK: 1e9 });
    expect(all.map((r) => r.corpusId).sort()).toEqual([0, 1]);
    expect(all.every((r) => Number.isFinite(r.score) && r.score > 0 && r.score < 1)).toBe(true); // sigmoid
    expect(memory().numTensors).toBe(before);
  });

  it('rejects calls after dispose(), and a call pending when dispose() comes, with UseAfterDisposeError', async () => {
    const other = await loadCrossEncoder(fixture('cross-encoders/bert'));
    const pending = other.predict(Array.from({ length: 8 }, () => ['a', 'b'] as const), { batchSize: 1 });
    other.dispose();
    await expect(pending).rejects.toThrow(UseAfterDisposeError);
    await expect(other.predict([['a', 'b']])).rejects.toThrow('CrossEncoder.predict: called after dispose() freed its weights. Create a new instance instead.');
    await expect(other.rank('a', ['b'])).rejects.toThrow(UseAfterDisposeError);
  });

  it('stops between batches when its signal aborts, leaving no tensor', async () => {
    const before = memory().numTensors;
    const controller = new AbortController();
    const pending = model.predict(Array.from({ length: 6 }, () => ['a', 'b'] as const), { batchSize: 1, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(memory().numTensors).toBe(before);
  });
});
