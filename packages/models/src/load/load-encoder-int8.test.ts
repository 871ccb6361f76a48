import { readFileSync } from 'node:fs';
import { memory } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { Int8Linear } from '@attnkit/nn';
import { readSafetensors, writeSafetensors, ModelLoadError } from '@attnkit/hub';
import { int8EncoderFiles } from '../int8/int8-encoder-files.js';
import type { StoredTensor } from '@attnkit/hub';
import { loadEncoder } from './load-encoder.js';

// loadEncoder on int8 folders (int8EncoderFiles): what a good one gives is tested beside
// int8EncoderFiles; here, every way a folder can lie about its int8 weights is a ModelLoadError
// naming the tensor, and a failed load leaves no tensor behind.

const fixture = (name: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/${name}/`, import.meta.url).pathname);
type Tensors = Record<string, { shape: readonly number[]; values: Float32Array | Int8Array }>;
const QUERY = 'encoder.layer.0.attention.self.query.weight';
let good: Map<string, Uint8Array>;

beforeAll(async () => {
  await useBackend('cpu');
  good = await int8EncoderFiles(fixture('families/bert'));
});

/** The good int8 folder with its tensors (and config) changed. */
function folder(change: (tensors: Tensors) => void, config?: (json: Record<string, unknown>) => void) {
  const tensors: Tensors = Object.create(null) as Tensors;
  for (const [name, t] of readSafetensors(good.get('model.safetensors')!, { keepInt8: true }).tensors as ReadonlyMap<string, StoredTensor>) tensors[name] = { shape: t.shape, values: t.values as Float32Array | Int8Array };
  change(tensors);
  const json = JSON.parse(new TextDecoder().decode(good.get('config.json'))) as Record<string, unknown>;
  config?.(json);
  return { files: { 'config.json': JSON.stringify(json), 'model.safetensors': writeSafetensors(tensors) } };
}

async function loadError(source: { readonly files: Readonly<Record<string, string | Uint8Array>> }): Promise<ModelLoadError> {
  const before = memory().numTensors;
  const error = await loadEncoder(source).then(() => undefined, (e: unknown) => e);
  expect(memory().numTensors).toBe(before);
  expect(error).toBeInstanceOf(ModelLoadError);
  return error as ModelLoadError;
}

describe('loadEncoder on an int8 folder', () => {
  it("loads with or without quantize: 'int8' (the same int8 model), telling onNotice only without it", async () => {
    const notices: string[] = [];
    const [a, b] = [await loadEncoder(folder(() => {}), { onNotice: (m) => notices.push(m) }), await loadEncoder(folder(() => {}), { quantize: 'int8', onNotice: (m) => notices.push(m) })];
    expect(notices).toHaveLength(1);
    const weights = (model: typeof a) => model.namedModules().filter(([, m]) => m instanceof Int8Linear).map(([path, m]) => [path, (m as Int8Linear).weight]);
    expect(weights(a)).toHaveLength(13); // 2 layers × 6 Linears + the pooler
    expect(weights(a)).toEqual(weights(b));
    a.dispose();
    b.dispose();
  });

  it.each<[string, (t: Tensors) => void, ((c: Record<string, unknown>) => void) | undefined, string, RegExp]>([
    ['an I8 weight without its scale', (t) => delete t[`${QUERY}_scale`], undefined, 'model.safetensors', /has int8 tensors that do not fit the int8 layout .*: 'encoder\.layer\.0\.attention\.self\.query\.weight' is I8 but 'encoder\.layer\.0\.attention\.self\.query\.weight_scale' is missing \(F32 \[32, 1\], one scale per output row\)\.$/],
    ['a scale of the wrong shape', (t) => { t[`${QUERY}_scale`] = { shape: [32], values: new Float32Array(32).fill(0.1) }; }, undefined, 'model.safetensors', /'encoder\.layer\.0\.attention\.self\.query\.weight_scale' is F32 \[32\]; expected F32 \[32, 1\]/],
    ['an int8 scale', (t) => { t[`${QUERY}_scale`] = { shape: [32, 1], values: new Int8Array(32).fill(1) }; }, undefined, 'model.safetensors', /'encoder\.layer\.0\.attention\.self\.query\.weight_scale' is I8 \[32, 1\]; expected F32 \[32, 1\]/],
    ['a non-finite scale', (t) => { (t[`${QUERY}_scale`]!.values as Float32Array)[3] = Infinity; }, undefined, 'model.safetensors', /'encoder\.layer\.0\.attention\.self\.query\.weight_scale' row 3 is Infinity; scales must be finite and positive/],
    ['a negative scale', (t) => { (t[`${QUERY}_scale`]!.values as Float32Array)[0] = -0.5; }, undefined, 'model.safetensors', /row 0 is -0\.5; scales must be finite and positive \(0 only for a row of zeros\)/],
    ['an int8 word embedding (not a Linear)', (t) => {
      const words = t['embeddings.word_embeddings.weight']!;
      t['embeddings.word_embeddings.weight'] = { shape: words.shape, values: new Int8Array(words.values.length).fill(1) };
      t['embeddings.word_embeddings.weight_scale'] = { shape: [words.shape[0]!, 1], values: new Float32Array(words.shape[0]!).fill(0.01) };
    }, undefined, 'model.safetensors', /has int8 weights that do not fit the model \(each names <linear>\.weight\): loadInt8LinearLayers: 'weights' must be int8 weights for Linear layers of the model in eval mode, of their widths; received 'embeddings\.word_embeddings' is an Embedding, not a Linear\.$/],
    ['a float and an int8 copy of one weight', (t) => { t[`bert.${QUERY}`] = { shape: [32, 32], values: new Float32Array(1024) }; }, undefined, 'model.safetensors', /has several tensors for one weight: bert\.encoder\.layer\.0\.attention\.self\.query\.weight and encoder\.layer\.0\.attention\.self\.query\.weight \(both encoder\.layer\.0\.attention\.self\.query\.weight: a float and an int8 copy\)/],
    ['a scale next to a float weight', (t) => { t[QUERY] = { shape: [32, 32], values: new Float32Array(1024) }; }, undefined, 'model.safetensors', /'encoder\.layer\.0\.attention\.self\.query\.weight_scale' scales 'encoder\.layer\.0\.attention\.self\.query\.weight', which is F32, not I8/],
    ['an int8 head', (t) => { t['cls.predictions.transform.dense.weight'] = { shape: [32, 32], values: new Int8Array(1024).fill(1) }; t['cls.predictions.transform.dense.weight_scale'] = { shape: [32, 1], values: new Float32Array(32).fill(0.1) }; }, undefined, 'model.safetensors', /has int8 weights for heads the encoder does not have \(cls\.predictions\.transform\.dense\.weight\); attnkit keeps heads float32/],
    ['int8 weights without a quantization_config', () => {}, (c) => delete c['quantization_config'], 'config.json', /holds int8 weights \(.*\.weight, \.\.\.\) but config\.json has no compressed-tensors quantization_config saying so/],
    ['a quantization_config of another scheme', () => {}, (c) => { (c['quantization_config'] as Record<string, unknown>)['format'] = 'pack-quantized'; }, 'config.json', /config\.json in the given files is not a supported encoder config: parseInt8QuantizationConfig: 'quantization_config\.format' must be "int-quantized"; received "pack-quantized"/],
  ])('refuses %s, naming it', async (_, change, config, file, message) => {
    const error = await loadError(folder(change, config));
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/^loadEncoder: /);
    expect(error.message).toMatch(message);
  });

  it('refuses a quantization_config over float weights', async () => {
    const error = await loadError({ files: { 'config.json': good.get('config.json')!, 'model.safetensors': readFileSync(`${fixture('families/bert')}model.safetensors`) } });
    expect(error.message).toMatch(/config\.json in the given files describes an int8 model \(quantization_config\) but model\.safetensors holds no int8 \(I8\) weight\.$/);
  });
});
