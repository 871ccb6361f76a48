import { cos, memory, tensor1d } from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { preciseCosSin } from './precise-cos-sin.js';

describe('preciseCosSin in Chromium', () => {
  it.each(['cpu', 'wasm', 'webgl', 'webgpu'] as const)('is within 4e-7 of float64 for angles up to 2·10^4 where the backend cos may not be (%s)', async (backend) => {
    await useBackend(backend);
    const values = new Float32Array(20_000).map((_, i) => Math.fround(i * Math.fround(1 / Math.pow(10_000, (i % 16) / 16))));
    const before = memory().numTensors;
    const input = tensor1d(values);
    const [c, s] = preciseCosSin(input);
    const native = cos(input);
    const [cv, sv, nv] = [await c.data(), await s.data(), await native.data()];
    let [worst, nativeWorst] = [0, 0];
    values.forEach((a, i) => {
      worst = Math.max(worst, Math.abs(cv[i]! - Math.cos(a)), Math.abs(sv[i]! - Math.sin(a)));
      nativeWorst = Math.max(nativeWorst, Math.abs(nv[i]! - Math.cos(a)));
    });
    console.log(`${backend}: preciseCosSin ${worst.toExponential(1)}, the backend's cos ${nativeWorst.toExponential(1)}`);
    expect(worst).toBeLessThan(4e-7);
    [input, c, s, native].forEach((t) => t.dispose());
    expect(memory().numTensors).toBe(before);
  });
});
