import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { checkLayerConfig } from './check-layer-config.js';

const KEYS = { widths: ['queryDim', 'keyDim'], flags: { bias: false }, others: ['seed'] } as const;

describe('checkLayerConfig', () => {
  it('returns the widths and flags (defaults filled in) of a config with only known keys', () => {
    expect(checkLayerConfig({ queryDim: 4, keyDim: 3, seed: 1 }, 'BilinearScorer', KEYS)).toEqual({ queryDim: 4, keyDim: 3, bias: false });
    expect(checkLayerConfig({ queryDim: 4, keyDim: 3, bias: true }, 'BilinearScorer', KEYS)).toEqual({ queryDim: 4, keyDim: 3, bias: true });
  });

  it.each<[unknown, string]>([
    [null, "BilinearScorer: 'config' must be a BilinearScorer config object ({ queryDim, keyDim, ... }); received null."],
    [{ queryDim: 4, keyDim: 3, weights: {} }, "BilinearScorer: 'config' must be an object with only the keys queryDim, keyDim, bias, seed; received the unknown key 'weights'."],
    [{ queryDim: 4, keyDim: 3, sed: 1 }, "BilinearScorer: 'config' must be an object with only the keys queryDim, keyDim, bias, seed; received the unknown key 'sed'. Did you mean 'seed'?"],
    [{ queryDim: 4, keyDim: 3, bias: 'yes' }, "BilinearScorer: 'bias' must be true or false; received string 'yes'."],
    [{ queryDim: 4 }, "BilinearScorer: 'keyDim' must be an integer ≥ 1; received undefined."],
    [{ queryDim: 0, keyDim: 3 }, "BilinearScorer: 'queryDim' must be an integer ≥ 1; received number 0."],
  ])('refuses %j with a typed error', (config, message) => {
    const error = thrown(() => checkLayerConfig(config, 'BilinearScorer', KEYS));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses a caller or key list that is not one', () => {
    expect(thrown(() => checkLayerConfig({}, undefined as never, KEYS)).message).toBe("checkLayerConfig: 'caller' must be the name of the layer, for messages; received undefined.");
    expect(thrown(() => checkLayerConfig({}, 'L', undefined as never)).message).toBe("checkLayerConfig: 'keys' must be { widths, flags?, others? }; received undefined.");
    expect(thrown(() => checkLayerConfig({}, 'L', { widths: 'queryDim' } as never))).toBeInstanceOf(InvalidArgumentError);
  });
});
