import { beforeAll, describe, expect, it } from 'vitest';
import { ones, tensor } from '@tensorflow/tfjs-core';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureRows, fixtureValues, leaksOf, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoder-blocks.json' with { type: 'json' };
import { decoderMask } from './decoder-mask.js';
import { paddingMaskFromIds } from './padding-mask-from-ids.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
const CASES = Object.entries((fixtures as unknown as FixtureFile).cases).filter(([name]) => name.startsWith('mask '));
beforeAll(() => useBackend('cpu'));

describe('decoderMask', () => {
  it('has the six transformers cases (causal and sliding window; left padding; a cache of past keys)', () => expect(CASES).toHaveLength(6));

  it.each(CASES)('equals transformers 5.17 create_causal_mask / create_sliding_window_causal_mask (sdpa, bool) on every backend: %s', async (_, { inputs, outputs }) => {
    const queryLength = inputs['query_length'] as number;
    const keyLength = inputs['key_length'] as number;
    const slidingWindow = (inputs['sliding_window'] as number | null) ?? undefined;
    const ids = inputs['attention_mask'] === undefined ? undefined : fixtureRows(inputs, 'attention_mask');
    const make = () => {
      const padding = ids === undefined ? undefined : paddingMaskFromIds(ids);
      try {
        return decoderMask(queryLength, keyLength, { padding, slidingWindow });
      } finally {
        padding?.dispose();
      }
    };
    const expected = specOf(outputs, 'mask');
    let values = fixtureValues(expected);
    if (ids === undefined) {
      // no padding: transformers expands one mask over the batch; ours is that mask, [1, 1, T, S], shared
      const row = values.length / (inputs['batch'] as number);
      expect(values.slice(row)).toEqual(values.slice(0, row));
      values = values.slice(0, row);
    }
    const report = await compareBackends(make, { backends: BACKENDS, tolerance: 0, reference: { output: values } });
    expect(report.ok).toBe(true);
    const shape = report.results[0]?.outputs[0]?.shape;
    expect(ids === undefined ? [inputs['batch'], ...(shape ?? []).slice(1)] : shape).toEqual(expected.shape); // without padding: [1, 1, T, S], shared by the batch
    expect(await leaksOf(() => make().dispose())).toEqual({ tensors: 0, bytes: 0 });
  });

  it('is the causal mask alone without padding, aligned to the end of the keys', async () => {
    const mask = decoderMask(2, 4);
    expect(await mask.array()).toEqual([[[[1, 1, 1, 0], [1, 1, 1, 1]]]]);
    mask.dispose();
  });

  it('refuses a padding mask that is not [B, 1, 1, S] bool, naming the fix', () => {
    const ids = tensor([[1, 1, 0]], undefined, 'int32');
    const wide = ones([2, 1, 1, 4], 'bool');
    expect(thrown(() => decoderMask(3, 3, { padding: ids })).message).toMatch(/^decoderMask: 'padding' must be a bool tensor of rank 4; received int32 tensor of rank 2 \[1, 3\]\. attnkit masks are bool/);
    expect(thrown(() => decoderMask(3, 3, { padding: wide })).message).toBe("decoderMask: 'padding' must be a key padding mask [B, 1, 1, S] with S = keyLength = 3; received [2, 1, 1, 4]. Build it with paddingMaskFromIds(attentionMask) from the [B, S] attention_mask of every key, past ones included.");
    expect(thrown(() => decoderMask(3, 3, { slidingWindow: 0 }))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => decoderMask(3, 3, { sliding_window: 2 } as never)).message).toBe("decoderMask: 'options' must be an object with only the keys padding, slidingWindow, offset; received the unknown key 'sliding_window'. Did you mean 'slidingWindow'?");
    [ids, wide].forEach((t) => t.dispose());
  });
});
