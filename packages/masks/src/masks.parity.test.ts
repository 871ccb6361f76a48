import { add, reshape, zerosLike } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, specOf, type FixtureFile } from '@attnkit/test-utils';
import maskFixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import softmaxFixtures from '@attnkit/reference/fixtures/masked-softmax.json' with { type: 'json' };
import extremeFixtures from '@attnkit/reference/fixtures/masked-softmax-extremes.json' with { type: 'json' };
import { causalMask } from './causal-mask.js';
import { maskedSoftmax } from './masked-softmax.js';
import { mergeMasks } from './merge-masks.js';
import { paddingMask } from './padding-mask.js';
import { paddingMaskFromIds } from './padding-mask-from-ids.js';

// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-5 };
const table = new ParityTable(`masks vs PyTorch, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
beforeAll(() => useBackend('cpu'));

describe('masks vs PyTorch on every backend here', () => {
  for (const [name, { inputs, outputs }] of Object.entries((maskFixtures as FixtureFile).cases)) {
    it(`exact on every backend: ${name}`, async () => {
      const make = () => {
        if (name.startsWith('padding lengths')) return paddingMask(inputs['lengths'] as number[], inputs['keyLength'] as number);
        if (name.startsWith('causal')) {
          const offset = inputs['offset'] as number | null;
          return causalMask(inputs['queryLength'] as number, inputs['keyLength'] as number, offset === null ? {} : { offset });
        }
        if (name.startsWith('merge')) return mergeMasks(fixtureTensor(specOf(inputs, 'padding')), fixtureTensor(specOf(inputs, 'causal')))!;
        return paddingMaskFromIds(fixtureTensor(specOf(inputs, 'attentionMask')) as never);
      };
      const report = await compareBackends(make, { backends: BACKENDS, tolerance: 0, reference: { output: fixtureValues(specOf(outputs, 'mask')) } });
      table.add(name, report);
      expect(report.ok).toBe(true);
    });
  }

  // torch._safe_softmax at extreme scores (tooling/reference/make_extreme_fixtures.py): every backend
  // gives the same answer, NaN where PyTorch gives NaN, zeros where it gives zeros — except the GPU
  // differences the masks README documents: WebGL's float arithmetic overflows for allowed scores
  // near the float32 limit (-3.4e38), and WebGPU's shaders do not carry NaN through max and exp.
  const KNOWN_GPU_DIFFERENCES: Record<string, string> = { '-3.4e38': 'webgl', NaN: 'webgpu' };
  for (const [name, { inputs, outputs }] of Object.entries((extremeFixtures as FixtureFile).cases)) {
    const value = /allowed scores (\S+),/.exec(name)?.[1] ?? '';
    it(`maskedSoftmax at extreme scores agrees with PyTorch on every backend: ${name}`, async () => {
      // without a mask, the scores are computed on the device as [1, 1, R, S] (a GPU's own −∞, through its rank-4 reductions)
      const unmasked = () => { const scores = fixtureTensor(specOf(inputs, 'scores')); return add(reshape(scores, [1, 1, ...scores.shape]), zerosLike(reshape(scores, [1, 1, ...scores.shape]))); };
      const report = await compareBackends(() => (inputs['mask'] === undefined ? reshape(maskedSoftmax(unmasked()), [...specOf(outputs, 'probabilities').shape]) : maskedSoftmax(fixtureTensor(specOf(inputs, 'scores')), fixtureTensor(specOf(inputs, 'mask')))), {
        backends: BACKENDS.filter((b) => KNOWN_GPU_DIFFERENCES[value] !== b),
        tolerance: TOLERANCE,
        reference: { output: fixtureValues(specOf(outputs, 'probabilities')) },
      });
      table.add(`extremes: ${name}`, report);
      expect(report.results.filter((r) => !r.outputs.every((o) => o.withinTolerance)).map((r) => `${r.backend}: ${r.outputs[0]?.maxAbsDiff}`)).toEqual([]);
    });
  }

  for (const [name, { inputs, outputs }] of Object.entries((softmaxFixtures as FixtureFile).cases)) {
    it(`maskedSoftmax within tolerance, fully masked rows exactly 0: ${name}`, async () => {
      const scores = fixtureTensor(specOf(inputs, 'scores'));
      const mask = inputs['mask'] === undefined ? undefined : fixtureTensor(specOf(inputs, 'mask'));
      const expected = fixtureValues(specOf(outputs, 'probabilities'));
      const report = await compareBackends(() => maskedSoftmax(scores, mask), { backends: BACKENDS, tolerance: TOLERANCE, reference: { output: expected } });
      table.add(`maskedSoftmax: ${name}`, report);
      expect(report.ok).toBe(true);
      scores.dispose();
      mask?.dispose();
    });
  }
});

afterAll(() => table.print());
