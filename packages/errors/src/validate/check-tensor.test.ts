import '@tensorflow/tfjs-backend-cpu'; // a backend for the tensors these tests make
import { ones, tensor, zeros, setBackend } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkTensor } from './check-tensor.js';

beforeAll(() => setBackend('cpu'));

const requirement = { caller: 'f', argument: 'query', dtype: 'float32', rank: [3, 4], shape: '[B, H, T, D]' } as const;

describe('checkTensor', () => {
  it('returns a matching tensor unchanged', () => {
    const x = zeros([1, 2, 3]);
    expect(checkTensor(x, requirement)).toBe(x);
    x.dispose();
  });
  it.each([
    [() => [1, 2], "f: 'query' must be a float32 tensor of rank 3 or 4 [B, H, T, D]; received array [1,2]."],
    [() => undefined, "f: 'query' must be a float32 tensor of rank 3 or 4 [B, H, T, D]; received undefined."],
    [() => ones([2, 3], 'int32'), "f: 'query' must be a float32 tensor of rank 3 or 4 [B, H, T, D]; received int32 tensor of rank 2 [2, 3]."],
    [() => zeros([2, 3]), "f: 'query' must be a float32 tensor of rank 3 or 4 [B, H, T, D]; received float32 tensor of rank 2 [2, 3]."],
  ])('rejects %#', (make, message) => {
    const value = make();
    expect(() => checkTensor(value, requirement)).toThrow(InvalidArgumentError);
    expect(() => checkTensor(value, requirement)).toThrow(message);
  });
  it('names a disposed tensor as such', () => {
    const x = tensor([[[1]]]);
    x.dispose();
    expect(() => checkTensor(x, requirement)).toThrow(
      "f: 'query' must be a float32 tensor of rank 3 or 4 [B, H, T, D]; received a disposed float32 tensor [1, 1, 1]. It was disposed before this call.",
    );
  });
  it('adds the dtype hint when the dtype is wrong', () => {
    const x = zeros([2, 3]);
    expect(() => checkTensor(x, { caller: 'g', argument: 'mask', dtype: 'bool', dtypeHint: 'Use fromAdditiveMask().' })).toThrow(
      "g: 'mask' must be a bool tensor; received float32 tensor of rank 2 [2, 3]. Use fromAdditiveMask().",
    );
    x.dispose();
  });

  it('reports with a requirement it cannot print as is (a disposed tensor as shape), never throwing while reporting', () => {
    const disposed = zeros([2]);
    disposed.dispose();
    const x = zeros([2, 3], 'int32');
    expect(() => checkTensor(x, { caller: 'f', argument: 'x', dtype: 'float32', shape: disposed as never })).toThrow("f: 'x' must be a float32 tensor a disposed float32 tensor [2]; received int32 tensor of rank 2 [2, 3].");
    expect(() => checkTensor(x, { caller: 'f', argument: 'x', rank: [disposed as never] })).toThrow("f: 'x' must be a tensor of rank a disposed float32 tensor [2]; received");
    x.dispose();
  });
});
