import { memory, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { Embedding } from './embedding.js';

beforeAll(() => useBackend('cpu'));

describe('Embedding', () => {
  it('looks up rows for ids of any shape; the padding row starts at zero', async () => {
    const table = new Embedding(5, 3, { paddingIdx: 2, seed: 1 });
    const ids = tensor([[2, 4], [0, 2]], undefined, 'int32');
    const out = table.forward(ids);
    expect(out.shape).toEqual([2, 2, 3]);
    const rows = (await table.weight.array()) as number[][];
    expect(rows[2]).toEqual([0, 0, 0]);
    expect((await out.array()) as number[][][]).toEqual([[rows[2], rows[4]], [rows[0], rows[2]]]);
    expect(await leaksOf(() => table.forward(ids).dispose())).toEqual({ tensors: 0, bytes: 0 });
    const trusted = table.forward(ids, { idsChecked: true }); // no read-back, same rows
    expect(await trusted.array()).toEqual(await out.array());
    trusted.dispose();
    [ids, out].forEach((t) => t.dispose());
    table.dispose();
  });

  it('refuses ids out of range (never a silent zero row) and non-integer ids', () => {
    const table = new Embedding(5, 3);
    const before = memory().numTensors;
    for (const [values, received] of [[[1, 5], '5 at flat index 1'], [[-1, 0], '-1 at flat index 0']] as const) {
      const ids = tensor(values as unknown as number[], undefined, 'int32');
      const error = thrown(() => table.forward(ids));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.message).toBe(`Embedding.forward: 'ids' must be ids in [0, numEmbeddings = 5); received ${received}.`);
      ids.dispose();
    }
    const floats = tensor([1.5]);
    expect(thrown(() => table.forward(floats)).message).toMatch(/^Embedding.forward: 'ids' must be an int32 tensor/);
    floats.dispose();
    expect(memory().numTensors).toBe(before);
    expect(thrown(() => new Embedding(5, 3, { paddingIdx: 5 })).message).toMatch(/^Embedding: 'paddingIdx' must be an integer from 0 to 4; received number 5\.$/);
    table.dispose();
  });
});

describe('Embedding options', () => {
  it('refuses unknown keys and a non-boolean idsChecked with typed errors', () => {
    expect(thrown(() => new Embedding(5, 3, { padding_idx: 0 } as never)).message).toBe("Embedding: 'options' must be an object with only the keys paddingIdx, seed; received the unknown key 'padding_idx'. Did you mean 'paddingIdx'?");
    const table = new Embedding(5, 3);
    const ids = tensor([[7]], undefined, 'int32');
    const error = thrown(() => table.forward(ids, { idsChecked: 'yes' } as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("Embedding.forward: 'idsChecked' must be true or false; received string 'yes'.");
    ids.dispose();
    table.dispose();
  });
});
