import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareBackends, useBackend, type ComparisonReport } from '@attnkit/backends';
import { fixtureTensor, specOf, type FixtureFile } from '@attnkit/test-utils';
import maskFixtures from '@attnkit/reference/fixtures/masks.json' with { type: 'json' };
import softmaxFixtures from '@attnkit/reference/fixtures/masked-softmax.json' with { type: 'json' };
import { causalMask } from './causal-mask.js';
import { maskedSoftmax } from './masked-softmax.js';
import { mergeMasks } from './merge-masks.js';
import { paddingMask } from './padding-mask.js';

const BACKENDS = ['cpu', 'wasm', 'webgl', 'webgpu'];
const TOLERANCE = { cpu: 1e-5, wasm: 1e-5, webgl: 1e-3, webgpu: 1e-5 };
const rows: string[] = [];
beforeAll(() => useBackend('cpu'));
function record(name: string, report: ComparisonReport): void {
  rows.push(`| ${name} | ${report.results.map((r) => r.outputs.map((o) => o.maxAbsDiff.toExponential(1)).join(' / ')).join(' | ')} |`);
}

describe('masks in Chromium vs PyTorch', () => {
  for (const [name, { inputs, outputs }] of Object.entries((maskFixtures as FixtureFile).cases)) {
    it(`exact on every backend: ${name}`, async () => {
      const make = () => {
        if (name.startsWith('padding lengths')) return paddingMask(inputs['lengths'] as number[], inputs['keyLength'] as number);
        if (name.startsWith('causal')) {
          const offset = inputs['offset'] as number | null;
          return causalMask(inputs['queryLength'] as number, inputs['keyLength'] as number, offset === null ? {} : { offset });
        }
        if (name.startsWith('merge')) return mergeMasks(fixtureTensor(specOf(inputs, 'padding')), fixtureTensor(specOf(inputs, 'causal')))!;
        return undefined;
      };
      if (make() === undefined) return; // ids case: pure JS input handling, covered in Node
      const report = await compareBackends(() => make()!, { backends: BACKENDS, tolerance: 0, reference: { output: specOf(outputs, 'mask').data } });
      record(name, report);
      expect(report.ok).toBe(true);
    });
  }

  for (const [name, { inputs, outputs }] of Object.entries((softmaxFixtures as FixtureFile).cases)) {
    it(`maskedSoftmax within tolerance, fully masked rows exactly 0: ${name}`, async () => {
      const scores = fixtureTensor(specOf(inputs, 'scores'));
      const mask = inputs['mask'] === undefined ? undefined : fixtureTensor(specOf(inputs, 'mask'));
      const expected = specOf(outputs, 'probabilities').data;
      const report = await compareBackends(() => maskedSoftmax(scores, mask), { backends: BACKENDS, tolerance: TOLERANCE, reference: { output: expected } });
      record(`maskedSoftmax: ${name}`, report);
      expect(report.ok).toBe(true);
      scores.dispose();
      mask?.dispose();
    });
  }
});

afterAll(() => console.log(`\nmasks vs PyTorch, max abs error, Chromium:\n| case | ${BACKENDS.join(' | ')} |\n| --- |${BACKENDS.map(() => ' --- |').join('')}\n${rows.join('\n')}\n`));
