import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memory, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { availableBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { Int8Linear, Linear } from '@attnkit/nn';
import { readSafetensors } from '@attnkit/hub';
import { int8EncoderFiles } from './int8-encoder-files.js';
import { loadBertForMaskedLM } from '../bert/load-bert-for-masked-lm.js';
import { loadEncoder } from '../load/load-encoder.js';

const fixture = (name: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/${name}/`, import.meta.url).pathname);
const FOLDERS = ['families/bert', 'families/roberta', 'families/xlm-roberta', 'families/distilbert', 'families/electra', 'families/mpnet', 'bert-a', 'bert-mlm'];
const BACKENDS = (await availableBackends()).filter((b) => b === 'cpu' || b === 'wasm');
const asFiles = (files: Map<string, Uint8Array>) => ({ files: Object.fromEntries(files) });
const INPUTS = { inputIds: [[2, 5, 7, 9, 3], [2, 8, 3, 1, 1]], attentionMask: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]] };

/** Every output tensor of a forward pass, read back and disposed. */
async function outputs(result: object): Promise<Float32Array[]> {
  const tensors = Object.values(result).filter((t): t is Tensor => typeof (t as Tensor | undefined)?.dataSync === 'function');
  const values = await Promise.all(tensors.map(async (t) => (await t.data()) as Float32Array));
  tensors.forEach((t) => t.dispose());
  return values;
}

describe.each(BACKENDS)('int8EncoderFiles on %s', (backend) => {
  it("makes int8 folders that load to the model quantize: 'int8' gives, bit for bit, from a quarter of the Linear weights' bytes, leaking nothing", async () => {
    await useBackend(backend);
    for (const folder of FOLDERS) {
      const files = await int8EncoderFiles(fixture(folder));
      const before = memory().numTensors;
      const notices: string[] = [];
      const [quantized, loaded] = [await loadEncoder(fixture(folder), { quantize: 'int8' }), await loadEncoder(asFiles(files), { onNotice: (m) => notices.push(m) })];
      try {
        const int8 = (model: typeof loaded) => model.namedModules().filter((entry): entry is [string, Int8Linear] => entry[1] instanceof Int8Linear && !model.initialisedKeys.includes(`${entry[0]}.weight`)); // a pooler the folder lacks is random in both
        expect(loaded.namedModules().some(([, m]) => m instanceof Linear), folder).toBe(false);
        expect(int8(loaded).map(([path, layer]) => [path, layer.weight]), folder).toEqual(int8(quantized).map(([path, layer]) => [path, layer.weight]));
        expect(notices.find((m) => m.includes('int8 folder')), folder).toMatch(new RegExp(`^loadEncoder: the given files is an int8 folder \\(config.json's quantization_config\\); loaded as an int8 inference model, ${int8(loaded).length} Int8Linear layers built from the stored int8 weights\\.$`));
        const [a, b] = [await outputs(loaded.forward(INPUTS)), await outputs(quantized.forward(INPUTS))];
        expect(a[0], folder).toEqual(b[0]); // lastHiddenState
        if (loaded.initialisedKeys.length === 0) expect(a, folder).toEqual(b); // and the pooler's output, unless the folder has no pooler (initialised randomly)
      } finally {
        quantized.dispose();
        loaded.dispose();
      }
      expect(memory().numTensors, folder).toBe(before);
    }
  });
});

describe('int8EncoderFiles', () => {
  it('stores each Linear weight as I8 [out, in] (a quarter of its F32 bytes) with an F32 [out, 1] scale, and everything else as it was (F16 stays F16)', async () => {
    await useBackend('cpu');
    const TINY = decodeURIComponent(new URL('../../assets/attnkit-tiny-bert/', import.meta.url).pathname); // stored F16
    for (const folder of [...FOLDERS, TINY]) {
      const path = folder === TINY ? TINY : fixture(folder);
      const source = readFileSync(join(path, 'model.safetensors'));
      const float = readSafetensors(source).tensors;
      const files = await int8EncoderFiles(path);
      expect(files.get('model.safetensors')!.length, folder).toBeLessThan(source.length);
      const int8 = readSafetensors(files.get('model.safetensors')!, { keepInt8: true }).tensors;
      const quantized = [...int8].filter(([, t]) => t.dtype === 'I8').map(([name]) => name);
      expect(quantized.length, folder).toBeGreaterThan(0);
      let [floatBytes, int8Bytes] = [0, 0];
      for (const name of quantized) {
        const [out, inputs] = float.get(name)!.shape as [number, number];
        expect(int8.get(name)!.shape, name).toEqual([out, inputs]);
        expect(int8.get(`${name}_scale`), name).toMatchObject({ dtype: 'F32', shape: [out, 1] });
        floatBytes += float.get(name)!.values.byteLength;
        int8Bytes += int8.get(name)!.values.byteLength;
      }
      expect(int8Bytes * 4, folder).toBe(floatBytes);
      for (const [name, tensor] of float) if (!quantized.includes(name) && !name.endsWith('position_ids')) expect(int8.get(name), name).toEqual(tensor); // dtype included
      const config = JSON.parse(new TextDecoder().decode(files.get('config.json'))) as { quantization_config: { quant_method: string; ignore: string[] } };
      expect(config.quantization_config.quant_method).toBe('compressed-tensors');
      if (folder === 'bert-mlm') expect(config.quantization_config.ignore).toEqual(['cls.predictions.transform.dense']);
    }
  });

  it('leaves heads float32: loadBertForMaskedLM gives an int8 encoder under a float head', async () => {
    await useBackend('cpu');
    const before = memory().numTensors;
    const mlm = await loadBertForMaskedLM(asFiles(await int8EncoderFiles(fixture('bert-mlm'))));
    expect(mlm.bert.encoder.get('layer').at(0).attention.get('self').query).toBeInstanceOf(Int8Linear);
    expect(mlm.cls.get('predictions').transform.get('dense')).toBeInstanceOf(Linear);
    await outputs(mlm.forward(INPUTS));
    mlm.dispose();
    expect(memory().numTensors).toBe(before);
  });

  it('refuses a folder that is already int8, and reports the buffers it leaves out', async () => {
    await useBackend('cpu');
    const files = await int8EncoderFiles(fixture('families/bert'));
    const dir = mkdtempSync(join(tmpdir(), 'attnkit-int8-'));
    for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
    const error = await int8EncoderFiles(dir).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(`int8EncoderFiles: 'source' must be a float32 encoder folder; received ${dir}, which is already quantized (config.json has a quantization_config). Load it with loadEncoder: it is an int8 model as it is.`);
    await expect(int8EncoderFiles(dir, { backend: 'cpu', color: 1 } as never)).rejects.toThrow(InvalidArgumentError);
  });
});
