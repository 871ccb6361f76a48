import { beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend } from '@attnkit/backends';
import { ResourceLimitError, InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, fixtureValues, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import { causalMask } from './causal-mask.js';

const causalCases = Object.entries((fixtures as FixtureFile).cases).filter(([name]) => name.startsWith('causal'));
beforeAll(() => useBackend('cpu'));

describe('causalMask', () => {
  it('has the six PyTorch cases (square, T<S, T>S, explicit offsets)', () => expect(causalCases).toHaveLength(6));

  it.each(causalCases)('equals torch.ones(T, S).tril(offset) on cpu and wasm: %s', async (_, { inputs, outputs }) => {
    const offset = inputs['offset'] as number | null;
    const make = () => causalMask(inputs['queryLength'] as number, inputs['keyLength'] as number, offset === null ? {} : { offset });
    const report = await compareBackends(make, { backends: ['cpu', 'wasm'], tolerance: 0, reference: { output: fixtureValues(specOf(outputs, 'mask')) } });
    expect(report.ok).toBe(true);
    expect(report.results[0]?.outputs[0]?.shape).toEqual(specOf(outputs, 'mask').shape);
  });

  it('aligns queries to the end of the keys by default: the last query sees every key', async () => {
    const mask = causalMask(2, 5);
    expect(await mask.array()).toEqual([[[[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]]]); // bool reads back as 0/1
    mask.dispose();
  });

  it('leaks nothing', async () => expect(await leaksOf(() => causalMask(4, 4).dispose())).toEqual({ tensors: 0, bytes: 0 }));

  it.each([
    [() => causalMask(0, 3), "causalMask: 'queryLength' must be an integer ≥ 1; received number 0."],
    [() => causalMask(3, -2), "causalMask: 'keyLength' must be an integer ≥ 1; received number -2."],
    [() => causalMask(3, 3, { offset: 0.5 }), "causalMask: 'offset' must be an integer; received number 0.5."],
  ])('rejects bad input %#', (call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses a mask past the memory budget (a [T, S] beyond 2³² elements is no typed array) with a typed error', () => {
    const error = thrown(() => causalMask(1, 2 ** 33));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/^causalMask: the values of the mask \[1, 1, 1, 8589934592\] float32 need 32\.0 GiB/);
  });
});

describe('causalMask options', () => {
  it('refuses null and unknown keys with typed errors', () => {
    expect(thrown(() => causalMask(2, 2, null as never))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => causalMask(2, 2, { ofset: 0 } as never)).message).toBe("causalMask: 'options' must be an object with only the keys offset; received the unknown key 'ofset'. Did you mean 'offset'?");
  });
});
