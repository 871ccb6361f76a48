import '@tensorflow/tfjs-backend-cpu'; // a backend for the tensors these tests make
import { tensor, setBackend } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { assertFinite } from './assert-finite.js';

beforeAll(() => setBackend('cpu'));

describe('assertFinite', () => {
  it('passes finite tensors and names the count and first position of NaN or infinities', async () => {
    const ok = tensor([1, -2, 3e38]);
    await expect(assertFinite(ok, 'f', 'x')).resolves.toBeUndefined();
    const bad = tensor([1, NaN, Infinity, -Infinity]);
    const error = await assertFinite(bad, 'f', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe("f: 'x' must be finite values only; received 3 NaN or infinite value(s), the first (NaN) at flat index 1.");
    [ok, bad].forEach((t) => t.dispose());
  });
});
