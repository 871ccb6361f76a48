import type { Tensor } from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableBackends, compareBackends, useBackend } from '@attnkit/backends';
import { ParityTable, fixtureTensor, fixtureValues, specOf, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/attention.json' with { type: 'json' };
import { MultiHeadAttention } from './multi-head-attention.js';

const { cases } = fixtures as FixtureFile;
// Node: cpu and wasm; Chromium: cpu, wasm, webgl and webgpu (this file runs in both).
const BACKENDS = await availableBackends();
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-5 };
const table = new ParityTable(`MultiHeadAttention vs torch.nn.MultiheadAttention, ${typeof document === 'undefined' ? 'Node' : 'Chromium'}`);
beforeAll(() => useBackend('cpu'));

describe('MultiHeadAttention.forwardTorch equals nn.MultiheadAttention(batch_first=True)', () => {
  it('has every case the issue asks for', () => expect(Object.keys(cases)).toHaveLength(13));

  for (const [name, spec] of Object.entries(cases)) {
    it(name, async () => {
      const numHeads = spec.inputs['numHeads'] as number;
      const weights = Object.fromEntries(Object.entries(spec.weights!).map(([k, v]) => [k, fixtureTensor(v)]));
      const mha = MultiHeadAttention.fromTorchStateDict(weights, { numHeads });
      Object.values(weights).forEach((t) => t.dispose());
      const query = fixtureTensor(specOf(spec.inputs, 'query'));
      const sameAsQuery = (n: string) => fixtureValues(specOf(spec.inputs, n)).join() === fixtureValues(specOf(spec.inputs, 'query')).join();
      // self-attention cases pass one tensor three times, as PyTorch did (the fused q/k/v path)
      const key = sameAsQuery('key') ? query : fixtureTensor(specOf(spec.inputs, 'key'));
      const value = fixtureValues(specOf(spec.inputs, 'value')).join() === fixtureValues(specOf(spec.inputs, 'key')).join() ? key : fixtureTensor(specOf(spec.inputs, 'value'));
      const optional = (n: string): Tensor | undefined => (spec.inputs[n] === undefined ? undefined : fixtureTensor(specOf(spec.inputs, n)));
      const [keyPaddingMask, attnMask] = [optional('keyPaddingMask'), optional('attnMask')];
      const needWeights = spec.inputs['needWeights'] as boolean;
      const averageAttnWeights = spec.inputs['averageAttnWeights'] as boolean;
      const reference: Record<string, number[]> = { output: [...fixtureValues(specOf(spec.outputs, 'output'))] };
      if (needWeights) reference['attentionWeights'] = [...fixtureValues(specOf(spec.outputs, 'attentionWeights'))];
      const report = await compareBackends(() => ({ ...mha.forwardTorch(query, key, value, { keyPaddingMask, attnMask, needWeights, averageAttnWeights }) }), {
        backends: BACKENDS,
        tolerance: TOLERANCE,
        reference,
      });
      table.add(name, report);
      expect(report.results[0]?.outputs.map((o) => o.output)).toEqual(needWeights ? ['output', 'attentionWeights'] : ['output']);
      expect(report.ok).toBe(true);
      new Set([query, key, value, keyPaddingMask, attnMask]).forEach((t) => t?.dispose());
      mha.dispose();
    });
  }
});

afterAll(() => table.print());
