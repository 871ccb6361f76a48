import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { resolveHubOptions } from './hub/hub-options.js';
import { modelFiles } from './model-files.js';
import { readSafetensors } from './safetensors/read-safetensors.js';
import { writeSafetensors } from './safetensors/write-safetensors.js';

const folder = decodeURIComponent(new URL('../../models/assets/attnkit-tiny-bert/', import.meta.url).pathname);
const bytes = writeSafetensors({ w: { shape: [2], values: new Float32Array([1, 2]) } });

describe('the hub readers check every argument', () => {
  it('refuses a file name or read options of the wrong kind (a rejected promise, not a raw TypeError)', async () => {
    const files = modelFiles(folder);
    await expect(files.read(null as never)).rejects.toThrow(/^ModelFiles\.read: 'name' must be a file name inside the folder \(a non-empty string\); received null/);
    await expect(files.json(7 as never)).rejects.toThrow(/^ModelFiles\.json: 'name' must be a file name/);
    await expect(files.read('config.json', { required: 'x' as never })).rejects.toThrow(/^ModelFiles\.read: 'required' must be true or false/);
    await expect(files.read('config.json', null as never)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await files.json('config.json', { required: true })).toMatchObject({ model_type: 'bert' });
  });

  it('refuses a caller that is no string and bad Hub options even for a local folder', () => {
    expect(thrown(() => modelFiles(folder, { caller: 7 as never })).message).toMatch(/^modelFiles: 'caller' must be the name of the calling function/);
    expect(thrown(() => modelFiles(folder, { hub: null as never })).message).toMatch(/^modelFiles: 'hub' must be an object \{ cacheDir\?, offline\?, token\?, endpoint\? \}; received null/);
  });

  it('refuses bad readSafetensors options', () => {
    expect(thrown(() => readSafetensors(bytes, null as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => readSafetensors(bytes, { maxHeaderBytes: NaN })).message).toMatch(/^readSafetensors: 'maxHeaderBytes' must be an integer/);
    expect(thrown(() => readSafetensors(bytes, { keepInt8: 1 as never })).message).toMatch(/^readSafetensors: 'keepInt8' must be true or false/);
    expect(readSafetensors(bytes, { maxHeaderBytes: 1000, keepInt8: true }).tensors.get('w')?.shape).toEqual([2]);
  });

  it('refuses a null endpoint and a caller that is no string in resolveHubOptions', () => {
    expect(thrown(() => resolveHubOptions({ endpoint: null as never }, 'test')).message).toMatch(/^test: 'hub\.endpoint' must be the http\(s\) address of a Hugging Face Hub/);
    expect(resolveHubOptions({}).offline).toBeTypeOf('boolean'); // no caller: messages name resolveHubOptions
    expect(thrown(() => resolveHubOptions({}, null as never)).message).toMatch(/^resolveHubOptions: 'caller' must be the name of the calling function/);
  });
});
