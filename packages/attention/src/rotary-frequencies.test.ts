import { tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureTensor, fixtureValues, leaksOf, specOf, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/decoder-blocks.json' with { type: 'json' };
import { rotaryConfigFromHuggingFace } from './rotary-config-from-hugging-face.js';
import { RotaryEmbedding } from './rotary-embedding.js';
import { rotaryFrequencies } from './rotary-frequencies.js';

const CASES = Object.entries((fixtures as unknown as FixtureFile).cases).filter(([name]) => name.startsWith('rope '));
/** Largest |ours − transformers| / |transformers| over the values. */
const relative = (ours: ArrayLike<number>, theirs: readonly number[]) => Math.max(...theirs.map((v, i) => Math.abs((ours[i] as number) - v) / Math.abs(v)));

beforeAll(() => useBackend('cpu'));

describe('rotaryFrequencies', () => {
  it('has the eight transformers cases (default, partial, linear, dynamic, llama3, three yarn)', () => expect(CASES).toHaveLength(8));

  it.each(CASES)('equals transformers 5.17 inv_freq and attention_scaling (float32 step for step, within one rounding): %s', (_, spec) => {
    const config = rotaryConfigFromHuggingFace(spec.inputs['config'] as unknown as Record<string, unknown>);
    const { inverseFrequencies, attentionScaling, rotaryDim } = rotaryFrequencies(config);
    const expected = fixtureValues(specOf(spec.outputs, 'inv_freq'));
    expect(rotaryDim).toBe(2 * expected.length);
    expect(relative(inverseFrequencies, expected)).toBeLessThanOrEqual(2 ** -23);
    expect(attentionScaling).toBeCloseTo(fixtureValues(specOf(spec.outputs, 'attention_scaling'))[0]!, 14);
  });

  it('dynamic: RotaryEmbedding grows its frequencies past the longest length seen, keeps them, resets below maxPositionEmbeddings — as transformers', () => {
    const [, spec] = CASES.find(([name]) => name.startsWith('rope dynamic'))!;
    const rotary = new RotaryEmbedding(rotaryConfigFromHuggingFace(spec.inputs['config'] as unknown as Record<string, unknown>));
    const calls = spec.inputs['calls'] as number;
    const seen: number[][] = [];
    for (let i = 0; i < calls; i++) {
      const ids = fixtureTensor(specOf(spec.inputs, `position_ids.${i}`));
      const { cos, sin } = rotary.forward(ids);
      [ids, cos, sin].forEach((t) => t.dispose());
      expect(relative(rotary.frequencies.inverseFrequencies, fixtureValues(specOf(spec.outputs, `inv_freq.${i}`)))).toBeLessThanOrEqual(2 ** -22); // the grown base takes five float32 steps more
      seen.push(Array.from(rotary.frequencies.inverseFrequencies));
    }
    expect(seen[1]).not.toEqual(seen[0]); // grown (positions to 40 > 16)
    expect(seen[2]).toEqual(seen[1]); // kept (31 > 16, below 41)
    expect(seen[3]).toEqual(seen[0]); // reset (10 < 16)
    rotary.dispose();
  });

  it('dynamic with seqLen computes the grown frequencies directly; at or below maxPositionEmbeddings they are the default ones', () => {
    const config = { headDim: 8, ropeType: 'dynamic', factor: 2, ropeTheta: 100, maxPositionEmbeddings: 16 } as const;
    const [, spec] = CASES.find(([name]) => name.startsWith('rope dynamic'))!;
    expect(relative(rotaryFrequencies(config, { seqLen: 41 }).inverseFrequencies, fixtureValues(specOf(spec.outputs, 'inv_freq.1')))).toBeLessThanOrEqual(2 ** -22);
    expect(rotaryFrequencies(config, { seqLen: 16 }).inverseFrequencies).toEqual(rotaryFrequencies({ headDim: 8, ropeTheta: 100 }).inverseFrequencies);
  });

  it.each([
    [{ headDim: 8, ropeType: 'longrope' }, "rotaryFrequencies: 'ropeType' must be one of 'default', 'linear', 'dynamic', 'llama3', 'yarn' (the rope_types attnkit implements); received string 'longrope'."],
    [{ headDim: 8, ropeType: 'yarm', factor: 2 }, /^rotaryFrequencies: 'ropeType' must be one of .*; received string 'yarm'\. Did you mean 'yarn'\?$/],
    [{ headDim: 8, ropeType: 'linear' }, "rotaryFrequencies: 'factor' must be a finite number ≥ 1 (rope_type 'linear' needs it); received undefined."],
    [{ headDim: 8, ropeType: 'linear', factor: 0.5 }, "rotaryFrequencies: 'factor' must be a finite number ≥ 1; received number 0.5."],
    [{ headDim: 8, ropeType: 'dynamic', factor: 2 }, "rotaryFrequencies: 'maxPositionEmbeddings' must be an integer ≥ 1 (rope_type 'dynamic' scales past it); received undefined."],
    [{ headDim: 8, ropeType: 'llama3', factor: 8, lowFreqFactor: 4, highFreqFactor: 1, originalMaxPositionEmbeddings: 64 }, "rotaryFrequencies: 'highFreqFactor' must be a finite number > lowFreqFactor = 4; received number 1."],
    [{ headDim: 8, ropeType: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4 }, "rotaryFrequencies: 'originalMaxPositionEmbeddings' must be an integer ≥ 1 (rope_type 'llama3' needs it, or maxPositionEmbeddings in its place); received undefined."],
    [{ headDim: 8, ropeType: 'yarn', factor: 4, lowFreqFactor: 1, maxPositionEmbeddings: 64 }, "rotaryFrequencies: 'lowFreqFactor' must be absent: rope_type 'yarn' reads headDim, ropeType, ropeTheta, partialRotaryFactor, maxPositionEmbeddings, factor, originalMaxPositionEmbeddings, attentionFactor, betaFast, betaSlow, mscale, mscaleAllDim, truncate; received number 1. It is a parameter of rope_type 'llama3'."],
    [{ headDim: 8, rope_theta: 500 }, /^rotaryFrequencies: 'rope_theta' must be absent: rope_type 'default' reads headDim, ropeType, ropeTheta, partialRotaryFactor, maxPositionEmbeddings; received number 500\.$/],
    [{ headDim: 10, partialRotaryFactor: 0.5 }, "rotaryFrequencies: 'partialRotaryFactor' must be a rotated width floor(headDim · partialRotaryFactor) that is even and ≥ 2; it is 5 here; received number 0.5."],
    [{ headDim: 7 }, "rotaryFrequencies: 'headDim' must be a rotated width floor(headDim · partialRotaryFactor) that is even and ≥ 2; it is 7 here; received number 7."],
    [{ headDim: 8, ropeTheta: -1 }, "rotaryFrequencies: 'ropeTheta' must be a finite number > 0; received number -1."],
    [{ headDim: 8, ropeType: 'yarn', factor: 2, maxPositionEmbeddings: 64, truncate: 'no' }, "rotaryFrequencies: 'truncate' must be true or false; received string 'no'."],
    [null, /^rotaryFrequencies: 'config' must be a RotaryConfig object/],
  ])('refuses a bad config with a typed error naming the key %#', (config, message) => {
    const error = thrown(() => rotaryFrequencies(config as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('checks its options', () => {
    expect(thrown(() => rotaryFrequencies({ headDim: 8 }, { seqLen: 0 })).message).toBe("rotaryFrequencies: 'seqLen' must be an integer ≥ 1; received number 0.");
    expect(thrown(() => rotaryFrequencies({ headDim: 8 }, { seq_len: 4 } as never))).toBeInstanceOf(InvalidArgumentError);
  });
});

describe('RotaryEmbedding', () => {
  it('has no parameters, checks its position ids, and leaks nothing', async () => {
    const rotary = new RotaryEmbedding({ headDim: 4 });
    expect(rotary.namedParameters()).toEqual([]);
    const ids = tensor([[0, 1, 2]], undefined, 'int32');
    expect(await leaksOf(() => Object.values(rotary.forward(ids)).forEach((t) => t.dispose()))).toEqual({ tensors: 0, bytes: 0 });
    const floats = tensor([[0, 1, 2]]);
    expect(thrown(() => rotary.forward(floats)).message).toMatch(/^RotaryEmbedding\.forward: 'positionIds' must be an int32 tensor of rank 2 \[B, T\]; received float32 tensor of rank 2 \[1, 3\]\. Position ids are int32/);
    expect(thrown(() => new RotaryEmbedding({ headDim: 4, ropeType: 'ntk' as never })).message).toMatch(/^RotaryEmbedding: 'ropeType' must be one of/);
    [ids, floats].forEach((t) => t.dispose());
    rotary.dispose();
    expect(thrown(() => rotary.forward(ids)).name).toBe('UseAfterDisposeError');
  });
});
