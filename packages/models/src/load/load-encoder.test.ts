import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { Int8Linear, Linear } from '@attnkit/nn';
import { readSafetensors, writeSafetensors, ModelLoadError } from '@attnkit/hub';
import embeddedFixtures from '@attnkit/reference/fixtures/embedded-bert.json' with { type: 'json' };
import { loadEncoder, loadEncoderFolder } from './load-encoder.js';
import { parseBertConfig } from '../bert/bert-config.js';
import { BertModel } from '../bert/bert-model.js';
import { loadBert } from '../bert/load-bert.js';

const family = (name: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/families/${name}/`, import.meta.url).pathname);
beforeAll(() => useBackend('cpu'));

describe('loadEncoder', () => {
  it('builds the class of each model_type and returns memory to baseline on dispose', async () => {
    const before = memory().numTensors;
    for (const [name, cls] of [['bert', 'BertModel'], ['roberta', 'RobertaModel'], ['xlm-roberta', 'RobertaModel'], ['distilbert', 'DistilBertModel'], ['electra', 'ElectraModel'], ['mpnet', 'MPNetModel']]) {
      const model = await loadEncoder(family(name!));
      expect(model.constructor.name).toBe(cls);
      model.dispose();
    }
    expect(memory().numTensors).toBe(before);
  });

  it('names an unsupported model_type and lists the supported ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-enc-'));
    cpSync(family('bert'), dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, model_type: 'nomic_bert' }));
    const error = await loadEncoder(dir).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(/^loadEncoder: config\.json in .* is not a supported encoder config: parseEncoderConfig: 'model_type' must be one of "bert", "distilbert", "roberta", "xlm-roberta", "electra", "mpnet", "roformer", "modernbert"; received "nomic_bert", NomicBERT .*trust_remote_code=True in transformers\); attnkit runs no code from a model folder/);
  });

  it('loadBert refuses another family and points to loadEncoder', async () => {
    const error = await loadBert(family('roberta')).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(/^loadBert: config\.json in .* has model_type "roberta"; loadBert loads "bert"\. loadEncoder loads every supported family\.$/);
  });

  it("checks each family's inputs: RoBERTa's length after the padding offset, token types where a family has none", async () => {
    const roberta = await loadEncoder(family('roberta'));
    const distilbert = await loadEncoder(family('distilbert'));
    const before = memory().numTensors;
    try {
      const long = () => roberta.forward({ inputIds: [Array(65).fill(5)] });
      expect(long).toThrow(InvalidArgumentError);
      expect(long).toThrow("RobertaModel.forward: 'inputIds' must be at most max_position_embeddings - (pad_token_id + 1) = 64 tokens per sequence; received 65 tokens. Truncate when tokenizing (truncation: true, maxLength).");
      expect(() => distilbert.forward({ inputIds: [[2, 5]], tokenTypeIds: [[0, 1]] })).toThrow("DistilBertModel.forward: 'tokenTypeIds[0][1]' must be an id in [0, 1); received 1.");
      const out = distilbert.forward({ inputIds: [[2, 5]], tokenTypeIds: [[0, 0]] }); // zeros are what its tokenizer gives
      expect(out.lastHiddenState.shape).toEqual([1, 2, 32]);
      out.lastHiddenState.dispose();
      expect(memory().numTensors).toBe(before);
    } finally {
      roberta.dispose();
      distilbert.dispose();
    }
  });
});

describe('loadEncoder with checkFinite', () => {
  /** A copy of a family folder whose weights hold NaN and Infinity in `poisoned` tensors. */
  function poisoned(count: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-nan-'));
    cpSync(family('bert'), dir, { recursive: true });
    const { tensors } = readSafetensors(new Uint8Array(readFileSync(join(dir, 'model.safetensors'))));
    const out: Record<string, { shape: number[]; values: Float32Array }> = {};
    [...tensors].forEach(([name, { shape, values }], i) => {
      const copy = Float32Array.from(values);
      if (i < count) [copy[0], copy[1]] = [NaN, i % 2 === 0 ? Infinity : NaN];
      out[name] = { shape: [...shape], values: copy };
    });
    writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(out));
    return dir;
  }

  it('loads NaN weights by default (reading every value costs time), refuses them when asked, naming at most three tensors', async () => {
    await useBackend('cpu');
    const before = memory().numTensors;
    const dir = poisoned(5);
    (await loadEncoder(dir)).dispose();
    const error = await loadEncoder(dir, { checkFinite: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(/^loadEncoder: model\.safetensors in .* has non-finite weights \(checkFinite\): [^:]+: 1 NaN, 1 infinite; [^:]+: 2 NaN; [^:]+: 1 NaN, 1 infinite; and 2 more tensors\.$/);
    expect(memory().numTensors).toBe(before);
    (await loadEncoder(family('bert'), { checkFinite: true })).dispose();
  });

  it('refuses a misspelled option instead of ignoring it (checkFinite spelled checkfinite would skip the check)', async () => {
    const error = await loadEncoder(family('bert'), { checkfinite: true } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe("loadEncoder: 'options' must be an object with only the keys onProgress, onNotice, signal, checkFinite, backend, fetch, hub, quantize; received the unknown key 'checkfinite'. Did you mean 'checkFinite'?");
  });
});

/** A fetch that serves `folder`'s files under https://models.example/m/ (404 for others), recording the URLs asked. */
function folderFetch(folder: string) {
  const asked: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    asked.push(url.pathname);
    try {
      return new Response(readFileSync(join(folder, url.pathname.replace(/^\/m\//, ''))));
    } catch {
      return new Response(null, { status: 404 });
    }
  };
  return { fetch: fetch as typeof globalThis.fetch, asked };
}

describe('loadEncoder from a URL', () => {
  it('reads every file with options.fetch', async () => {
    const { fetch, asked } = folderFetch(family('bert'));
    const model = await loadEncoder('https://models.example/m/', { fetch });
    expect(model.constructor.name).toBe('BertModel');
    expect(asked).toEqual(['/m/config.json', '/m/model.safetensors']);
    model.dispose();
  });

  it('a URL that answers config.json with an HTML page is an error saying so, not "config.json is missing"', async () => {
    const fetch = (async () => new Response('<!doctype html><title>App</title>', { headers: { 'content-type': 'text/html' } })) as typeof globalThis.fetch;
    const error = await loadEncoder('https://example.org/app/', { fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toBe("loadEncoder: config.json at https://example.org/app/config.json is an HTML page, not JSON: is https://example.org/app/ the model folder's URL? A Hugging Face model's files are at https://huggingface.co/<id>/resolve/main/.");
  });
});

describe("loadEncoder with quantize: 'int8'", () => {
  it('makes every Linear of each family an Int8Linear (pooler included), leaves the other parameters, and returns memory to baseline on dispose', async () => {
    const before = memory().numTensors;
    for (const name of ['bert', 'roberta', 'xlm-roberta', 'distilbert', 'electra', 'mpnet']) {
      const float = await loadEncoder(family(name));
      const model = await loadEncoder(family(name), { quantize: 'int8' });
      const linears = float.namedModules().filter(([, m]) => m instanceof Linear).map(([path]) => path);
      expect(linears.length, name).toBeGreaterThanOrEqual(6 * float.config.numHiddenLayers);
      expect(model.namedModules().filter(([, m]) => m instanceof Int8Linear).map(([path]) => path), name).toEqual(linears);
      expect(model.namedModules().some(([, m]) => m instanceof Linear), name).toBe(false);
      // the int8 weights are no parameters; every other key is the float model's
      expect(model.namedParameters().map(([key]) => key), name).toEqual(float.namedParameters().map(([key]) => key).filter((key) => !linears.some((path) => key === `${path}.weight`)));
      const out = model.forward({ inputIds: [[2, 5, 7, 3]] });
      expect(out.lastHiddenState.shape, name).toEqual([1, 4, model.config.hiddenSize]);
      out.lastHiddenState.dispose();
      out.poolerOutput?.dispose();
      [float, model].forEach((m) => m.dispose());
    }
    expect(memory().numTensors).toBe(before);
  });

  it('keeps the embedded model within cosine 0.999 of the PyTorch reference (mean-pooled sentence embeddings and every token)', async () => {
    const model = await loadBert(decodeURIComponent(new URL('../../assets/attnkit-tiny-bert/', import.meta.url).pathname), { quantize: 'int8' });
    const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
      let [dot, aa, bb] = [0, 0, 0];
      for (let i = 0; i < a.length; i++) [dot, aa, bb] = [dot + a[i]! * b[i]!, aa + a[i]! ** 2, bb + b[i]! ** 2];
      return dot / Math.sqrt(aa * bb);
    };
    let [sentences, tokens] = [Infinity, Infinity];
    for (const { inputs, outputs } of Object.values((embeddedFixtures as unknown as { cases: Record<string, { inputs: Record<string, { shape: number[]; data: number[] }>; outputs: Record<string, { shape: number[]; data: number[] }> }> }).cases)) {
      const [batch, length] = inputs['input_ids']!.shape as [number, number];
      const rows = (name: string) => Array.from({ length: batch }, (_, b) => inputs[name]!.data.slice(b * length, (b + 1) * length));
      const mask = rows('attention_mask');
      const out = model.forward({ inputIds: rows('input_ids'), attentionMask: mask, tokenTypeIds: rows('token_type_ids') });
      const [ours, reference] = [await out.lastHiddenState.data(), outputs['last_hidden_state']!.data];
      out.lastHiddenState.dispose();
      out.poolerOutput?.dispose();
      const width = model.config.hiddenSize;
      const at = (values: ArrayLike<number>, b: number, t: number) => Array.from({ length: width }, (_, e) => values[(b * length + t) * width + e]!);
      const pooled = (values: ArrayLike<number>, b: number) => {
        const kept = mask[b]!.flatMap((m, t) => (m === 1 ? [at(values, b, t)] : []));
        return Array.from({ length: width }, (_, e) => kept.reduce((s, v) => s + v[e]!, 0) / kept.length);
      };
      for (let b = 0; b < batch; b++) {
        sentences = Math.min(sentences, cosine(pooled(ours, b), pooled(reference, b)));
        mask[b]!.forEach((m, t) => { if (m === 1) tokens = Math.min(tokens, cosine(at(ours, b, t), at(reference, b, t))); });
      }
    }
    expect(sentences).toBeGreaterThanOrEqual(0.999); // measured 0.999998 (simd kernel)
    expect(tokens).toBeGreaterThanOrEqual(0.999);
    expect(sentences).toBeLessThan(1 - 1e-9); // int8 did run (float32 rounds to 1.00000000 here)
    model.dispose();
  });

  it("is inference only: train() throws a typed error naming Int8Linear", async () => {
    const model = await loadEncoder(family('bert'), { quantize: 'int8' });
    model.train();
    const error = (() => { try { model.forward({ inputIds: [[2, 5]] }); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/^Int8Linear\.forward: 'mode' must be eval mode \(Int8Linear is inference only: its int8 weight has no gradient\); received training mode\./);
    model.dispose();
  });

  it("refuses another value, naming 'int8', before reading any file", async () => {
    for (const quantize of ['int4', 'q8', 8, null]) {
      const error = await loadEncoder('https://models.example/never-fetched/', { quantize } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/^loadEncoder: 'quantize' must be 'int8' \(or absent for float32 weights\); received /);
    }
    const error = await loadBert(family('bert'), { quantize: 'fp16' } as never).catch((e: unknown) => e);
    expect((error as Error).message).toBe("loadBert: 'quantize' must be 'int8' (or absent for float32 weights); received string 'fp16'.");
  });
});

describe('loadEncoderFolder loader refusals', () => {
  const loader = { caller: 'test', parseConfig: parseBertConfig, build: (c: never, s: { checkpoint: never }) => new BertModel(c, s.checkpoint) };
  it.each<[string, object, RegExp]>([
    ['an unknown key', { usesHead: true }, /^loadEncoderFolder: 'loader' must be an object with only the keys caller, parseConfig, build, modelTypes, usesHeads, encoderPath, floatHead; received the unknown key 'usesHead'/],
    ['a usesHeads that is no boolean', { usesHeads: 'yes' }, /^loadEncoderFolder: 'loader\.usesHeads' must be true or false/],
    ['a floatHead that is no boolean', { floatHead: null }, /^loadEncoderFolder: 'loader\.floatHead' must be true or false/],
    ['modelTypes that is no list', { modelTypes: 'bert' }, /^loadEncoderFolder: 'modelTypes' must be absent or a list/],
    ['an encoderPath that is neither a path nor a function', { encoderPath: 1 }, /^loadEncoderFolder: 'loader\.encoderPath' must be a path ending in '\.'/],
    ['an encoderPath without its dot', { encoderPath: 'bert' }, /^encoderStateDict: 'encoderPath' must be where the encoder sits/],
  ])('refuses %s', async (_, given, message) => {
    await expect(loadEncoderFolder(family('bert'), {}, { ...loader, ...given } as never)).rejects.toThrow(message);
  });
});
