import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, specOf, type FixtureFile } from '@attnkit/test-utils';
import maskFixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import softmaxFixtures from '@attnkit/reference/fixtures/masked-softmax.json' with { type: 'json' };
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
