import { memory, type Tensor } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend, maxDifference } from '@attnkit/backends';
import reference from '@attnkit/reference/fixtures/families-sharded.json' with { type: 'json' };
import { loadEncoder } from './load-encoder.js';

// A checkpoint saved in shards by transformers' save_pretrained(max_shard_size=...)
// (tooling/reference/make_sharded_fixture.py): its model.safetensors.index.json and four shards.
const folder = (relative: string) => decodeURIComponent(new URL(`../../../../tooling/reference/fixtures/${relative}/`, import.meta.url).pathname);
const inputs = { inputIds: reference.inputs.input_ids, attentionMask: reference.inputs.attention_mask, tokenTypeIds: reference.inputs.token_type_ids };

describe('loadEncoder on a sharded checkpoint', () => {
  it('has the shards transformers wrote', () => {
    expect(reference.shards).toHaveLength(4);
  });

  it.each(['cpu', 'wasm'] as const)('equals transformers on the reloaded sharded model within 1e-4, and the unsharded folder bit for bit (%s)', async (backend) => {
    await useBackend(backend);
    const before = memory().numTensors;
    const sharded = await loadEncoder(folder(reference.folder));
    const whole = await loadEncoder(folder(reference.source));
    const a = sharded.forward(inputs);
    const b = whole.forward(inputs);
    const values = async (t: Tensor | undefined) => Array.from(await t!.data());
    expect(maxDifference(await values(a.lastHiddenState), reference.last_hidden_state.flat(2)).maxAbsDiff).toBeLessThanOrEqual(1e-4);
    expect(maxDifference(await values(a.poolerOutput), reference.pooler_output.flat()).maxAbsDiff).toBeLessThanOrEqual(1e-4);
    expect(await values(a.lastHiddenState)).toEqual(await values(b.lastHiddenState));
    [a.lastHiddenState, a.poolerOutput, b.lastHiddenState, b.poolerOutput].forEach((t) => t?.dispose());
    sharded.dispose();
    whole.dispose();
    expect(memory().numTensors).toBe(before);
  });
});
