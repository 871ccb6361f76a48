import { readFileSync } from 'node:fs';
import { memory, zeros, type Tensor2D } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { maxDifference, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from '@attnkit/hub';
import { SentenceEncoder } from './sentence-encoder.js';
import { loadSentenceEncoder } from './load-sentence-encoder.js';

const fixtures = decodeURIComponent(new URL('../../../tooling/reference/fixtures/', import.meta.url).pathname);
const texts = ['a short one', 'a much longer text that goes on for a while and gets truncated at sixteen tokens', '', 'mid length text here', 'x'];
let model: SentenceEncoder;
beforeAll(async () => {
  await useBackend('cpu');
  model = await loadSentenceEncoder(`${fixtures}sentence/bert-prompts`);
});
afterAll(() => model.dispose());

describe('SentenceEncoder.encode', () => {
  it('returns the same embeddings in input order whatever the batch size, reports progress, and leaks nothing', async () => {
    const before = memory().numTensors;
    const progress: Array<[number, number]> = [];
    const one = await model.encode(texts, { batchSize: 1, onProgress: (done, total) => progress.push([done, total]) });
    const all = await model.encode(texts, { batchSize: 32 });
    const alone = await model.encode([texts[1]!]);
    expect(maxDifference(one.dataSync(), all.dataSync()).maxAbsDiff).toBeLessThan(1e-6);
    expect(Math.max(...(await alone.data()).map((v, i) => Math.abs(v - one.dataSync()[32 + i]!)))).toBeLessThan(1e-6); // row 1 is text 1
    expect(progress).toEqual([[1, 5], [2, 5], [3, 5], [4, 5], [5, 5]]);
    [one, all, alone].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });

  it('batches texts of like token counts together (longest first), not like character counts, and gives the rows back in input order', async () => {
    // 'x x x x' is 7 characters and 4 tokens; 'xxxxxxxxxxxx' 12 characters and fewer tokens: sorting by characters would pair unlike lengths
    const given = ['xxxxxxxxxxxx', 'x x x x', 'x', 'x x x x x'];
    const tokens = given.map((t) => model.tokenizer.tokenize(t).length);
    const batches: number[][] = [];
    const encode = model.tokenizer.encode.bind(model.tokenizer);
    model.tokenizer.encode = ((...args: Parameters<typeof encode>) => { const out = encode(...args); batches.push(out.attentionMask.map((row) => row.reduce((a, b) => a + b, 0))); return out; }) as typeof encode;
    try {
      const together = await model.encode(given, { batchSize: 2, prompt: '' }); // no prompt: the batches hold the texts alone
      const longestFirst = [...given.keys()].sort((a, b) => tokens[b]! - tokens[a]! || a - b);
      expect(batches).toEqual([longestFirst.slice(0, 2), longestFirst.slice(2)].map((rows) => rows.map((r) => tokens[r]! + model.tokenizer.numSpecialTokens())));
      const alone = await Promise.all(given.map((t) => model.encode([t], { prompt: '' })));
      for (const [i, row] of ((await together.array()) as number[][]).entries()) expect(Math.max(...row.map((v, j) => Math.abs(v - alone[i]!.dataSync()[j]!)))).toBeLessThan(1e-6);
      [together, ...alone].forEach((t) => t.dispose());
    } finally {
      model.tokenizer.encode = encode;
    }
  });

  it('gives [0, E] for no texts, [N, truncateDim] with truncateDim, and unit rows with normalize', async () => {
    const empty = await model.encode([]);
    expect(empty.shape).toEqual([0, 32]);
    const short = await model.encode(texts, { truncateDim: 8, normalize: true });
    expect(short.shape).toEqual([5, 8]);
    const norms = (short.arraySync() as number[][]).map((row) => Math.hypot(...row));
    norms.forEach((n) => expect(n).toBeCloseTo(1, 5));
    [empty, short].forEach((t) => t.dispose());
  });

  it('reads a null option as left out, as None in sentence-transformers: normalize null is false, prompt null the default prompt', async () => {
    const plain = await model.encode(['cat']);
    const nulls = await model.encode(['cat'], { normalize: null, prompt: null, ranges: null, onProgress: null, signal: null, batchSize: null } as never);
    const normalized = await model.encode(['cat'], { normalize: true });
    expect(maxDifference(plain.dataSync(), nulls.dataSync()).maxAbsDiff).toBe(0);
    expect(maxDifference(plain.dataSync(), normalized.dataSync()).maxAbsDiff).toBeGreaterThan(1e-3); // not unit rows already: null did not normalize
    [plain, nulls, normalized].forEach((t) => t.dispose());
  });

  it('applies the default prompt unless another is named or given', async () => {
    const byDefault = await model.encode(['cat']);
    const named = await model.encode(['cat'], { promptName: 'query' });
    const explicit = await model.encode(['cat'], { prompt: 'query: ' });
    const none = await model.encode(['cat'], { prompt: '' });
    expect(maxDifference(byDefault.dataSync(), named.dataSync()).maxAbsDiff).toBe(0);
    expect(maxDifference(byDefault.dataSync(), explicit.dataSync()).maxAbsDiff).toBe(0);
    expect(maxDifference(byDefault.dataSync(), none.dataSync()).maxAbsDiff).toBeGreaterThan(1e-3);
    [byDefault, named, explicit, none].forEach((t) => t.dispose());
  });

  it.each<[string, () => Promise<unknown>, string]>([
    ['an unknown prompt name', () => model.encode(['a'], { promptName: 'summary' }), "SentenceEncoder.encode: 'promptName' must be one of the folder's prompts ('document', 'passage', 'query'); received string 'summary'."],
    ['a batch size of 0', () => model.encode(['a'], { batchSize: 0 }), "SentenceEncoder.encode: 'batchSize' must be an integer ≥ 1; received number 0."],
    ['a precision sentence-transformers does not have', () => model.encode(['a'], { precision: 'float16' as never }), "SentenceEncoder.encode: 'precision' must be 'float32', 'int8', 'uint8', 'binary', 'ubinary'; received string 'float16'."],
    ['one string instead of a list', () => model.encode('a' as never), "SentenceEncoder.encode: 'texts' must be a list of strings; received string 'a'."],
    ['a number among the texts', () => model.encode(['a', 3 as never]), "SentenceEncoder.encode: 'texts[1]' must be a string; received number 3."],
    // eslint-disable-next-line no-sparse-arrays
    ['a hole in a sparse list', () => model.encode(['a', , 'b'] as never), "SentenceEncoder.encode: 'texts[1]' must be a string; received undefined."],
    ['a proxy that swaps a text after its check', () => {
      let reads = 0;
      return model.encode(new Proxy(['a', 'b'], { get: (target, key, receiver) => (key === '1' ? (reads++ === 0 ? 3 : 'b') : Reflect.get(target, key, receiver)) }));
    }, "SentenceEncoder.encode: 'texts[1]' must be a string; received number 3."],
    ['quantized token embeddings', () => model.encode(['a'], { outputValue: 'token_embeddings', precision: 'int8' } as never), "SentenceEncoder.encode: 'precision' must be 'float32' with outputValue 'token_embeddings'; received string 'int8'."],
    ['a truncateDim of 0', () => model.encode(['a'], { truncateDim: 0 }), "SentenceEncoder.encode: 'truncateDim' must be an integer ≥ 1; received number 0."],
  ])('rejects %s', async (_, call, message) => {
    const before = memory().numTensors;
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(message);
    expect(memory().numTensors).toBe(before);
  });

  it('refuses to run after dispose', async () => {
    const other = await loadSentenceEncoder(`${fixtures}sentence/bert-cls`);
    other.dispose();
    await expect(other.encode(['a'])).rejects.toThrow('SentenceEncoder.encode: called after dispose()');
  });
});

describe('SentenceEncoder.similarity', () => {
  it("scores [N, M] by the folder's function as a Tensor2D, so array() is a number[][], and leaks nothing", async () => {
    const before = memory().numTensors;
    const embeddings = await model.encode(texts.slice(0, 2));
    const scores = model.similarity(embeddings, embeddings);
    expectTypeOf(scores).toEqualTypeOf<Tensor2D>();
    const rows = await scores.array();
    expectTypeOf(rows).toEqualTypeOf<number[][]>(); // a Tensor's array() would be number | number[] | ...: no destructuring
    expect(scores.shape).toEqual([2, 2]);
    expect(rows[0]![1]).toBeCloseTo(rows[1]![0]!, 6);
    [embeddings, scores].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });
});

describe('loadSentenceEncoder', () => {
  it('names a missing Dense weight file and frees what it had loaded', async () => {
    const { mkdtempSync, cpSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/attnkit-st-`);
    cpSync(`${fixtures}sentence/bert-dense`, dir, { recursive: true });
    rmSync(`${dir}/3_Dense/model.safetensors`);
    const before = memory().numTensors;
    const error = await loadSentenceEncoder(dir).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(/^loadSentenceEncoder: 3_Dense\/model\.safetensors is missing in .* \(the Dense module's weights/);
    expect(memory().numTensors).toBe(before);
  });
});

describe('new SentenceEncoder', () => {
  it('checks that the Dense modules chain: in_features of each is the width before it', async () => {
    const base = await loadSentenceEncoder(`${fixtures}sentence/bert-dense`);
    try {
      const [first, second] = base.dense;
      expect(() => new SentenceEncoder(base.encoder, base.tokenizer, base.folder, [second!, first!])).toThrow("SentenceEncoder: 'dense[0]' must be in_features = 32 (the width before it); received 24.");
      expect(() => new SentenceEncoder(base.encoder, base.tokenizer, base.folder, [first!])).toThrow("SentenceEncoder: 'dense' must be 2 Dense modules, one per Dense in the folder; received 1.");
    } finally {
      base.dispose();
    }
  });
});

describe('loadSentenceEncoder with checkFinite', () => {
  it('refuses a Dense module whose weights hold NaN, naming the file; loads it without the check', async () => {
    const { cpSync, mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readSafetensors, writeSafetensors } = await import('@attnkit/hub');
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-dense-nan-'));
    cpSync(`${fixtures}sentence/bert-dense`, dir, { recursive: true });
    const { tensors } = readSafetensors(new Uint8Array(readFileSync(join(dir, '2_Dense', 'model.safetensors'))));
    writeFileSync(join(dir, '2_Dense', 'model.safetensors'), writeSafetensors(Object.fromEntries([...tensors].map(([name, t]) => [name, { shape: [...t.shape], values: Float32Array.from(t.values, (v, i) => (i === 3 ? NaN : v)) }]))));
    const before = memory().numTensors;
    await expect(loadSentenceEncoder(dir, { checkFinite: true })).rejects.toThrow(/^loadSentenceEncoder: 2_Dense\/model\.safetensors in .* has non-finite weights \(checkFinite\): linear\.bias: 1 NaN; linear\.weight: 1 NaN\.$/);
    expect(memory().numTensors).toBe(before);
    (await loadSentenceEncoder(dir)).dispose();
  });

  it('refuses a Dense module stored int8 (an int8 folder quantizes the encoder only), naming the file and the tensor', async () => {
    const { cpSync, mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readSafetensors, writeSafetensors } = await import('@attnkit/hub');
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-dense-int8-'));
    cpSync(`${fixtures}sentence/bert-dense`, dir, { recursive: true });
    const { tensors } = readSafetensors(new Uint8Array(readFileSync(join(dir, '2_Dense', 'model.safetensors'))));
    writeFileSync(join(dir, '2_Dense', 'model.safetensors'), writeSafetensors(Object.fromEntries([...tensors].map(([name, t]) => [name, { shape: [...t.shape], values: name === 'linear.weight' ? new Int8Array(t.values.length) : Float32Array.from(t.values) }]))));
    const before = memory().numTensors;
    const error = await loadSentenceEncoder(dir).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(/^loadSentenceEncoder: 2_Dense\/model\.safetensors in .* holds int8 \(I8\) tensors \(linear\.weight\); Dense modules are read as float32 \(F32, F16 or BF16\) — an int8 folder quantizes the encoder only\.$/);
    expect(memory().numTensors).toBe(before);
  });
});

describe('SentenceEncoder.encode and loadSentenceEncoder options', () => {
  it.each<[string, () => unknown, string]>([
    ['null options', () => null, "SentenceEncoder.encode: 'options' must be an options object; received null."],
    ['a misspelled key', () => ({ normalise: true }), "SentenceEncoder.encode: 'options' must be an object with only the keys batchSize, promptName, prompt, normalize, truncateDim, precision, ranges, outputValue, onProgress, signal; received the unknown key 'normalise'. Did you mean 'normalize'?"],
    ['normalize: "yes"', () => ({ normalize: 'yes' }), "SentenceEncoder.encode: 'normalize' must be true or false; received string 'yes'."],
    ['a signal that is not an AbortSignal', () => ({ signal: {} }), "SentenceEncoder.encode: 'signal' must be an AbortSignal (from new AbortController().signal); received Object."],
    ['onProgress: 5', () => ({ onProgress: 5 }), "SentenceEncoder.encode: 'onProgress' must be a function; received number 5."],
    ['a tensor as ranges', () => ({ precision: 'int8', ranges: zeros([2, 32]) }), "SentenceEncoder.encode: 'ranges' must be quantization ranges { min, max }: two lists of E = 32 numbers (from quantizationRanges()); received float32 tensor of rank 2 [2, 32]."],
    ['ranges of the wrong width', () => ({ precision: 'uint8', ranges: { min: [0], max: [1] } }), "SentenceEncoder.encode: 'ranges.min' must be quantization ranges { min, max }: two lists of E = 32 numbers (from quantizationRanges()); received array [0]."],
    ['ranges without quantization', () => ({ ranges: { min: [0], max: [1] } }), "SentenceEncoder.encode: 'ranges' must be absent with precision 'float32' (ranges calibrate 'int8' / 'uint8'); received Object."],
  ])('encode refuses %s with a typed error, leaking nothing', async (_, make, message) => {
    const options = make();
    const before = memory().numTensors;
    const error = await model.encode(['a'], options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(message);
    expect(memory().numTensors).toBe(before);
    (options as { ranges?: { dispose?: () => void } } | null)?.ranges?.dispose?.();
  });

  it('loadSentenceEncoder refuses unknown keys and wrong-typed callbacks', async () => {
    const folder = `${fixtures}sentence/bert-prompts`;
    await expect(loadSentenceEncoder(folder, { on_progress: () => {} } as never)).rejects.toThrow("loadSentenceEncoder: 'options' must be an object with only the keys onProgress, onNotice, signal, backend, checkFinite, fetch, hub, quantize; received the unknown key 'on_progress'. Did you mean 'onProgress'?");
    await expect(loadSentenceEncoder(folder, { onNotice: 'log' } as never)).rejects.toThrow("loadSentenceEncoder: 'onNotice' must be a function; received string 'log'.");
    await expect(loadSentenceEncoder(folder, { fetch: 'https://proxy' } as never)).rejects.toThrow("loadSentenceEncoder: 'fetch' must be a function with the signature of the global fetch (such as cachedFetch()); received string 'https://proxy'.");
    await expect(loadSentenceEncoder(folder, { checkFinite: 1 } as never)).rejects.toThrow(InvalidArgumentError);
    for (const quantize of ['int4', 'INT8', true]) {
      const error = await loadSentenceEncoder('https://models.example/never-fetched/', { quantize } as never).catch((e: unknown) => e); // refused before any file is read
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/^loadSentenceEncoder: 'quantize' must be 'int8' \(or absent for float32 weights\); received /);
    }
  });
});

describe('loadSentenceEncoder with options.fetch', () => {
  it('reads every file of the folder (modules, their configs, tokenizer, Dense weights) with it, never the global fetch, with progress for each', async () => {
    const folder = `${fixtures}sentence/bert-dense/`;
    const asked: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(url.pathname.replace(/^\/m\//, ''));
      try {
        return new Response(readFileSync(`${folder}${url.pathname.replace(/^\/m\//, '')}`));
      } catch {
        return new Response(null, { status: 404 });
      }
    }) as typeof globalThis.fetch;
    const global = globalThis.fetch;
    globalThis.fetch = (async () => { throw new Error('the global fetch was called'); }) as typeof globalThis.fetch;
    try {
      const reported = new Set<string>();
      const fromUrl = await loadSentenceEncoder('https://models.example/m/', { fetch, onProgress: (p) => void reported.add(p.file) });
      expect([...reported].sort()).toEqual(['config.json', 'config_sentence_transformers.json', 'model.safetensors', 'modules.json', 'sentence_bert_config.json', 'tokenizer.json', 'tokenizer_config.json']); // every file read, module folders' ones by their own names
      const fromFolder = await loadSentenceEncoder(folder);
      const [a, b] = [await fromUrl.encode(['a short one']), await fromFolder.encode(['a short one'])];
      expect(maxDifference(a.dataSync(), b.dataSync()).maxAbsDiff).toBe(0);
      [a, b, fromUrl, fromFolder].forEach((x) => x.dispose());
    } finally {
      globalThis.fetch = global;
    }
    expect(asked).toEqual(expect.arrayContaining(['modules.json', '1_Pooling/config.json', '2_Dense/config.json', '2_Dense/model.safetensors', '3_Dense/model.safetensors', 'config.json', 'model.safetensors', 'tokenizer.json', 'sentence_bert_config.json']));
  });
});
