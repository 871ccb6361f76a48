import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { int8QuantizationConfig, ModelLoadError, modelFiles } from '@attnkit/hub';
import { parseBertConfig } from '../bert/bert-config.js';
import { parseEncoderConfig } from '../encoder/parse-encoder-config.js';
import { int8EncoderFiles } from '../int8/int8-encoder-files.js';
import { readEncoderFolder } from './read-encoder-folder.js';
import { readModelFolder } from './read-model-folder.js';

const folder = (name: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/families/${name}/`, import.meta.url).pathname);
const file = (name: string, path: string) => readFileSync(`${folder(name)}${path}`);

describe('readEncoderFolder (step 1 of loading: nothing is made on a backend)', () => {
  it('reads the config with the family parser and every stored tensor, and finds no int8 weight in a float folder', async () => {
    const read = await readEncoderFolder(modelFiles(folder('distilbert'), { caller: 'test' }), { parseConfig: (json) => parseEncoderConfig(json) });
    expect(read.config.modelType).toBe('distilbert');
    expect(read.tensors.get('transformer.layer.0.attention.q_lin.weight')?.shape).toEqual([32, 32]);
    expect(read.int8.weights.size).toBe(0);
  });

  it('finds the int8 weights of an int8 folder with their scales', async () => {
    const files = Object.fromEntries(await int8EncoderFiles(folder('bert')));
    const read = await readEncoderFolder(modelFiles({ files }, { caller: 'test' }), { parseConfig: (json) => parseBertConfig(json) });
    expect(read.int8.weights.get('encoder.layer.0.attention.self.query.weight')).toMatchObject({ inFeatures: 32, outFeatures: 32 });
    expect(read.int8.scales.has('encoder.layer.0.attention.self.query.weight_scale')).toBe(true);
  });

  it.each<[string, Record<string, string | Uint8Array>, RegExp]>([
    ['a config of a family the loader does not take', { 'config.json': file('roberta', 'config.json'), 'model.safetensors': file('roberta', 'model.safetensors') }, /^loadBert: config\.json in the given files has model_type "roberta"; loadBert loads "bert"\. loadEncoder loads every supported family\.$/],
    ['a config the family parser refuses', { 'config.json': '{"model_type":"bert","vocab_size":0}', 'model.safetensors': file('bert', 'model.safetensors') }, /^loadBert: config\.json in the given files is not a supported encoder config: parseBertConfig: 'vocab_size' must be a positive integer; received 0\.$/],
    ['no weights', { 'config.json': file('bert', 'config.json') }, /^loadBert: model\.safetensors is missing in the given files\.$/],
    ['a quantization_config over float weights', { 'config.json': JSON.stringify({ ...JSON.parse(file('bert', 'config.json').toString()), quantization_config: int8QuantizationConfig() }), 'model.safetensors': file('bert', 'model.safetensors') }, /^loadBert: config\.json in the given files describes an int8 model \(quantization_config\) but model\.safetensors holds no int8 \(I8\) weight\.$/],
  ])('is a ModelLoadError naming the file for %s', async (_, files, message) => {
    const error = await readEncoderFolder(modelFiles({ files }, { caller: 'loadBert' }), { parseConfig: (json) => parseBertConfig(json), modelTypes: ['bert'] }).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error?.message).toMatch(message);
  });

  it('refuses what is not the files of a folder, and options it does not know', async () => {
    await expect(readEncoderFolder('./bert' as never, { parseConfig: parseBertConfig })).rejects.toThrow("readEncoderFolder: 'files' must be the files of a model folder (modelFiles(source)); received string './bert'.");
    await expect(readEncoderFolder(modelFiles(folder('bert')), { parseConfig: parseBertConfig, checkfinite: true } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(readEncoderFolder(modelFiles(folder('bert')), { parseConfig: 'bert' } as never)).rejects.toThrow("readEncoderFolder: 'parseConfig' must be a config parser such as parseEncoderConfig; received string 'bert'.");
  });
});

describe('readEncoderFolder and readModelFolder option refusals', () => {
  const files = () => modelFiles(folder('bert'), { caller: 'test' });
  it.each<[string, object, RegExp]>([
    ['modelTypes that is no list', { modelTypes: 'bert' }, /^readEncoderFolder: 'modelTypes' must be absent or a list of model_type strings/],
    ['a checkFinite that is no boolean', { checkFinite: 'yes' }, /^readEncoderFolder: 'checkFinite' must be true or false/],
  ])('readEncoderFolder refuses %s', async (_, options, message) => {
    await expect(readEncoderFolder(files(), { parseConfig: parseBertConfig, ...options } as never)).rejects.toThrow(message);
  });
  it.each<[string, object, RegExp]>([
    ['a null kind', { kind: null }, /^readModelFolder: 'kind' must be a non-empty name for messages; received null\.$/],
    ['an everyFamily that is no string', { everyFamily: 1 }, /^readModelFolder: 'everyFamily' must be a non-empty name/],
    ['a null defaultModelType', { defaultModelType: null }, /^readModelFolder: 'defaultModelType' must be absent or the model_type/],
    ['a checkFinite of -1', { checkFinite: -1 }, /^readModelFolder: 'checkFinite' must be true or false/],
  ])('readModelFolder refuses %s', async (_, options, message) => {
    await expect(readModelFolder(files(), { parseConfig: parseBertConfig, kind: 'encoder', everyFamily: 'loadEncoder', ...options } as never)).rejects.toThrow(message);
  });
});
