import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { grad, tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { relu6 } from './relu6.js';

beforeAll(() => useBackend('cpu'));

describe('relu6', () => {
  it("clips to [0, 6] with PyTorch's gradient: 1 strictly inside, 0 at both kinks and beyond", async () => {
    const x = tensor([-1, 0, 3, 6, 7]);
    expect(Array.from(await relu6(x).data())).toEqual([0, 0, 3, 6, 6]);
    expect(Array.from(await grad((v) => relu6(v))(x).data())).toEqual([0, 0, 1, 0, 0]);
    x.dispose();
  });
});
