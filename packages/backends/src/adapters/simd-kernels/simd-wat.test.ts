import { describe, expect, it } from 'vitest';
import { simdWat } from './simd-wat.js';

describe('simdWat', () => {
  it('imports the memory shared (threaded binary) or plain, and is otherwise the same text', () => {
    const [shared, plain] = [simdWat('shared'), simdWat('plain')];
    expect(shared).toContain('(import "env" "memory" (memory 1 65536 shared))');
    expect(plain).toContain('(import "env" "memory" (memory 1))');
    expect(shared.replace('1 65536 shared', '1')).toBe(plain);
  });

  it('exports erf, gelu, layerNorm and maskedSoftmax, and interleaves four vectors in the elementwise kernels; every constant is a WAT number', () => {
    const wat = simdWat('plain');
    expect([...wat.matchAll(/\(func \(export "(\w+)"\)/g)].map((m) => m[1])).toEqual(['erf', 'gelu', 'layerNorm', 'maskedSoftmax']);
    const erf = wat.slice(wat.indexOf('(export "erf")'), wat.indexOf('(export "gelu")'));
    expect(['$x0', '$x1', '$x2', '$x3'].every((v) => erf.includes(`(local.set ${v} `))).toBe(true);
    expect(wat.match(/(?:v128|f32)\.const[^)]*\b(?:NaN|undefined|Infinity)/)).toBeNull(); // every constant is a number WAT parses
  });
});
