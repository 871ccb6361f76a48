import { memory, ones } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { FeedForward } from './feed-forward.js';

beforeAll(() => useBackend('cpu'));

describe('FeedForward', () => {
  it('names its parameters as PyTorch does and maps [..., E] to [..., E] without leaks', async () => {
    const block = new FeedForward({ embedDim: 4, feedForwardDim: 6, activation: 'silu', seed: 2 });
    expect(block.namedParameters().map(([n, p]) => [n, p.shape])).toEqual([['linear1.weight', [6, 4]], ['linear1.bias', [6]], ['linear2.weight', [4, 6]], ['linear2.bias', [4]]]);
    const x = ones([2, 3, 4]);
    expect(block.forward(x).shape).toEqual([2, 3, 4]);
    expect(await leaksOf(() => block.forward(x).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
    block.dispose();
  });

  it('a bad config fails before or without leaking the layers already built', () => {
    const before = memory().numTensors;
    expect(thrown(() => new FeedForward({ embedDim: 4, feedForwardDim: 6, dropout: 2 }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => new FeedForward({ embedDim: 4, feedForwardDim: 6, activation: 'nope' }))).toBeInstanceOf(InvalidArgumentError);
    expect(memory().numTensors).toBe(before);
  });
});
