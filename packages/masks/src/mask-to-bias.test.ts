import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { maskToBias } from './mask-to-bias.js';
import { paddingMask } from './padding-mask.js';

beforeAll(() => useBackend('cpu'));

describe('maskToBias', () => {
  it('gives 0 where attending and the backend-safe fill where blocked', async () => {
    const mask = paddingMask([1, 2], 2);
    const bias = maskToBias(mask);
    expect([bias.dtype, bias.shape, Array.from(await bias.data())]).toEqual(['float32', [2, 1, 1, 2], [0, -1e9, 0, 0]]);
    const custom = maskToBias(mask, { fillValue: -5e4 });
    expect(Array.from(await custom.data())).toEqual([0, -5e4, 0, 0]);
    expect(await leaksOf(() => maskToBias(mask).dispose())).toEqual({ tensors: 0, bytes: 0 });
    [mask, bias, custom].forEach((t) => t.dispose());
  });
  it.each([[-Infinity], [0], [1e9], [NaN], [-1e39]])('rejects fillValue %d', (fillValue) => {
    const mask = tensor([true], [1], 'bool');
    const error = thrown(() => maskToBias(mask, { fillValue }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(
      `maskToBias: 'fillValue' must be a negative number finite in float32 (above -3.4e38; -Infinity breaks WebGL shaders and turns fully masked rows into NaN); received number ${fillValue}.`,
    );
    mask.dispose();
  });
});

describe('maskToBias options', () => {
  it('refuses a positional fill value, null and an unknown key with typed errors', async () => {
    const mask = tensor([true, false]);
    const leaks = await leaksOf(() => {
      const positional = thrown(() => maskToBias(mask, -1e4 as never));
      expect(positional).toBeInstanceOf(InvalidArgumentError);
      expect(positional.message).toBe("maskToBias: 'options' must be an options object { fillValue? } (pass a fill value as maskToBias(mask, { fillValue })); received number -10000.");
      expect(thrown(() => maskToBias(mask, null as never)).message).toMatch(/^maskToBias: 'options' must be an options object \{ fillValue\? \}.*; received null\.$/);
      expect(thrown(() => maskToBias(mask, { fill: -1 } as never)).message).toBe("maskToBias: 'options' must be an object with only the keys fillValue; received the unknown key 'fill'. Did you mean 'fillValue'?");
    });
    expect(leaks.tensors).toBe(0);
    mask.dispose();
  });
});
