import { tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { leaksOf } from '@attnkit/test-utils';
import { firstCountedPosition, lastCountedPosition } from './counted-positions.js';

beforeAll(() => useBackend('cpu'));

// rows of 64 (where tfjs-webgpu's argMax returns 32 for the first of equal values): left padding,
// right padding, a hole, nothing counted
const row = (counted: (t: number) => boolean) => Array.from({ length: 64 }, (_, t) => (counted(t) ? 1 : 0));
const mask = () => tensor2d([row((t) => t >= 5), row((t) => t < 40), row((t) => t === 3 || t === 60), row(() => false)]);

describe('firstCountedPosition and lastCountedPosition', () => {
  it('give the first and last counted position of each row, 0 for a row with none (PyTorch argmax of zeros)', () => {
    expect(firstCountedPosition(mask()).arraySync()).toEqual([5, 0, 3, 0]);
    expect(lastCountedPosition(mask()).arraySync()).toEqual([63, 39, 60, 0]);
    expect(firstCountedPosition(mask()).dtype).toBe('int32');
  });

  it('leak no tensor', async () => {
    const m = mask();
    expect(await leaksOf(() => { firstCountedPosition(m).dispose(); lastCountedPosition(m).dispose(); })).toEqual({ tensors: 0, bytes: 0 });
    m.dispose();
  });
});
