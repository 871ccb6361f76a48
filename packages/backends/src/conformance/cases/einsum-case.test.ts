import { describe, expect, it } from 'vitest';
import { einsumCase } from './einsum-case.js';

describe('einsumCase', () => {
  it("needs the Einsum kernel and describes scores [2, 3, 4, 6]", () => {
    expect(einsumCase.kernels).toEqual(['Einsum']);
    expect(einsumCase.reference()).toHaveLength(2 * 3 * 4 * 6);
  });
});
