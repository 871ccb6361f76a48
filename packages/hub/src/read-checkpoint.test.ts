import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from './model-load-error.js';
import { modelFiles } from './model-files.js';
import { readCheckpoint } from './read-checkpoint.js';
import { writeSafetensors } from './safetensors/write-safetensors.js';

const f32 = (...values: number[]) => ({ shape: [values.length], values: Float32Array.from(values) });
const index = (map: Record<string, string>) => JSON.stringify({ metadata: { total_size: 0 }, weight_map: map });
const sharded = (extra: Record<string, string | Uint8Array> = {}) => ({
  'model-00001-of-00002.safetensors': writeSafetensors({ 'a.weight': f32(1, 2), 'b.weight': f32(3) }),
  'model-00002-of-00002.safetensors': writeSafetensors({ 'c.weight': f32(4, 5, 6) }),
  'model.safetensors.index.json': index({ 'a.weight': 'model-00001-of-00002.safetensors', 'b.weight': 'model-00001-of-00002.safetensors', 'c.weight': 'model-00002-of-00002.safetensors' }),
  ...extra,
});
const failure = (files: Record<string, string | Uint8Array>) => readCheckpoint(modelFiles({ files }, { caller: 'loadEncoder' })).then(() => undefined, (e: unknown) => e as Error);

describe('readCheckpoint', () => {
  it('reads model.safetensors', async () => {
    const { tensors, files } = await readCheckpoint(modelFiles({ files: { 'model.safetensors': writeSafetensors({ 'a.weight': f32(1, 2) }) } }));
    expect(files).toEqual(['model.safetensors']);
    expect([...tensors.keys()]).toEqual(['a.weight']);
    expect(Array.from(tensors.get('a.weight')!.values)).toEqual([1, 2]);
  });

  it('reads a sharded checkpoint: the index and every shard, merged, each shard read once', async () => {
    const asked: string[] = [];
    const given = sharded();
    const files = modelFiles({ files: new Proxy(given, { get: (target, name: string) => (asked.push(name), target[name as keyof typeof target]) }) });
    const checkpoint = await readCheckpoint(files);
    expect(checkpoint.files).toEqual(['model.safetensors.index.json', 'model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
    expect([...checkpoint.tensors.keys()].sort()).toEqual(['a.weight', 'b.weight', 'c.weight']);
    expect(Array.from(checkpoint.tensors.get('c.weight')!.values)).toEqual([4, 5, 6]);
    expect(asked.filter((name) => name.endsWith('.safetensors'))).toEqual(['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
  });

  it.each<[string, Record<string, string | Uint8Array>, RegExp]>([
    ['neither file', {}, /^loadEncoder: model\.safetensors is missing in the given files\.$/],
    ['only a PyTorch checkpoint', { 'pytorch_model.bin': new Uint8Array(4) }, /^loadEncoder: model\.safetensors is missing in the given files \(it has pytorch_model\.bin: convert it with safetensors' convert script/],
    ['an index that is not JSON', { 'model.safetensors.index.json': '{"weight_map":' }, /^loadEncoder: model\.safetensors\.index\.json in the given files is not valid JSON/],
    ['an index without a weight_map', { 'model.safetensors.index.json': '{"metadata":{}}' }, /^loadEncoder: model\.safetensors\.index\.json in the given files has no "weight_map" object/],
    ['a shard path that leaves the folder', sharded({ 'model.safetensors.index.json': index({ 'a.weight': '../secret.safetensors' }) }), /maps "a\.weight" to "\.\.\/secret\.safetensors"; a shard is a \.safetensors file name inside the folder \(no path\)\.$/],
    ['a missing shard', { 'model.safetensors.index.json': index({ 'a.weight': 'model-00001-of-00009.safetensors' }) }, /^loadEncoder: model-00001-of-00009\.safetensors is missing in the given files \(model\.safetensors\.index\.json lists it as a shard\)\.$/],
    ['a tensor in another shard than the index says, one the index does not list, one in no shard', sharded({
      'model.safetensors.index.json': index({ 'a.weight': 'model-00002-of-00002.safetensors', 'b.weight': 'model-00001-of-00002.safetensors', 'c.weight': 'model-00002-of-00002.safetensors', 'e.weight': 'model-00002-of-00002.safetensors' }),
      'model-00002-of-00002.safetensors': writeSafetensors({ 'c.weight': f32(4), 'd.weight': f32(7) }),
    }), /does not match its shards: d\.weight is in model-00002-of-00002\.safetensors, but the index does not list it; a\.weight is in model-00001-of-00002\.safetensors, but the index places it in model-00002-of-00002\.safetensors; e\.weight is in no shard \(the index places it in model-00002-of-00002\.safetensors\)\.$/],
    ['a tensor in two shards', sharded({ 'model-00002-of-00002.safetensors': writeSafetensors({ 'c.weight': f32(4), 'a.weight': f32(9, 9) }) }), /does not match its shards: a\.weight is in two shards\.$/],
    ['a corrupt shard', sharded({ 'model-00002-of-00002.safetensors': new Uint8Array(5) }), /^loadEncoder: model-00002-of-00002\.safetensors in the given files: /],
  ])('names the file and the problem: %s', async (_, files, message) => {
    const error = await failure(files);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error?.message).toMatch(message);
  });

  it('refuses a first argument that is not the files of a folder', async () => {
    await expect(readCheckpoint('./model' as never)).rejects.toThrow(InvalidArgumentError);
    await expect(readCheckpoint('./model' as never)).rejects.toThrow("readCheckpoint: 'files' must be the files of a model folder (modelFiles(source)); received string './model'.");
  });
});
