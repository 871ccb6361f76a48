import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError, modelFiles, writeSafetensors } from '@attnkit/hub';
import { parseBertConfig } from '../bert/bert-config.js';
import { encoderStateDict } from './encoder-state-dict.js';
import { readEncoderFolder } from './read-encoder-folder.js';

const config = JSON.stringify({ model_type: 'bert', vocab_size: 10, hidden_size: 4, num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 8, max_position_embeddings: 6 });
const f32 = (...shape: number[]) => ({ shape, values: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(0.5) });
const read = (tensors: Record<string, { shape: number[]; values: Float32Array }>) =>
  readEncoderFolder(modelFiles({ files: { 'config.json': config, 'model.safetensors': writeSafetensors(tensors) } }, { caller: 'loadBert' }), { parseConfig: (json) => parseBertConfig(json) });

describe('encoderStateDict (step 2 of loading: stored names become parameter keys)', () => {
  it("drops the family's prefix, renames legacy LayerNorm names, ignores buffers and sets heads aside", async () => {
    const folder = await read({ 'bert.embeddings.LayerNorm.gamma': f32(4), 'embeddings.position_ids': f32(1, 6), 'cls.predictions.bias': f32(10), 'pooler.dense.bias': f32(4) });
    const { checkpoint, heads, int8Layers } = encoderStateDict(folder);
    expect([...checkpoint.keys()].sort()).toEqual(['embeddings.LayerNorm.weight', 'pooler.dense.bias']);
    expect([...heads.keys()]).toEqual(['cls.predictions.bias']);
    expect(int8Layers.size).toBe(0);
  });

  it('refuses two tensors for one weight, naming both', async () => {
    const folder = await read({ 'bert.pooler.dense.bias': f32(4), 'pooler.dense.bias': f32(4) });
    expect(() => encoderStateDict(folder)).toThrow(ModelLoadError);
    expect(() => encoderStateDict(folder)).toThrow('loadBert: model.safetensors in the given files has several tensors for one weight: bert.pooler.dense.bias and pooler.dense.bias (both pooler.dense.bias). Keep one of each.');
  });

  it('refuses what is not a read folder', () => {
    expect(() => encoderStateDict({} as never)).toThrow(InvalidArgumentError);
    expect(() => encoderStateDict(null as never)).toThrow("encoderStateDict: 'folder' must be a read encoder folder (readEncoderFolder); received null.");
  });
});

describe('encoderStateDict refusals', () => {
  it.each([[null], [Number.NaN], ['bert'], [{}]])('refuses encoderPath %s: it is \'\' or a path ending in \'.\'', async (path) => {
    const folder = await read({ 'embeddings.LayerNorm.weight': f32(4) });
    expect(() => encoderStateDict(folder, path as never)).toThrow(InvalidArgumentError);
    expect(() => encoderStateDict(folder, path as never)).toThrow(/^encoderStateDict: 'encoderPath' must be where the encoder sits in the model: '' or a path ending in '\.'/);
  });
});
