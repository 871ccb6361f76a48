import { describe, expect, it } from 'vitest';
import { erfGeluCases } from './erf-gelu-cases.js';

describe('erfGeluCases', () => {
  it('erf lies in (-1, 1), GELU(x) is between min(x, 0) and max(x, 0), tanh in (-1, 1)', () => {
    const [erf, gelu, tanh] = erfGeluCases.map((c) => Array.from(c.reference()));
    for (const v of [...erf!, ...tanh!]) expect(Math.abs(v)).toBeLessThan(1);
    expect(gelu!.every((v) => v >= -0.17 && Number.isFinite(v))).toBe(true); // GELU's minimum is ≈ -0.1700
    expect(Math.min(...gelu!)).toBeLessThan(-0.16);
  });
});
