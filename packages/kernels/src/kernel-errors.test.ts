import { describe, expect, it } from 'vitest';
import { AttnkitError } from '@attnkit/errors';
import { InferenceOnlyError } from './inference-only-error.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';

describe('the kernels\' errors', () => {
  it('name the caller, the kernel and the ones that run', () => {
    const e = new KernelUnavailableError({ caller: 'int8MatMul', kernel: 'relaxed-simd', supported: ['simd', 'js'], hint: 'Leave kernel unset.' });
    expect(e.message).toBe("int8MatMul: the 'relaxed-simd' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: simd, js. Leave kernel unset.");
    expect([e.code, e.caller, e.kernel, e.supported]).toEqual(['ATTNKIT_KERNEL_UNAVAILABLE', 'int8MatMul', 'relaxed-simd', ['simd', 'js']]);
    const g = new InferenceOnlyError({ caller: 'fusedAttention', hint: 'Use scaledDotProductAttention.' });
    expect(g.message).toBe("fusedAttention: has no gradient, and was called while tfjs records gradients (inside grad, variableGrads or an optimizer's minimize). Use scaledDotProductAttention.");
  });

  it('are built from whatever they are given, so reporting never throws', () => {
    for (const details of [undefined, null, Number.NaN, 'x', {}, [1, , 1]]) { // eslint-disable-line no-sparse-arrays
      expect(new KernelUnavailableError(details as never)).toBeInstanceOf(AttnkitError);
      expect(new InferenceOnlyError(details as never)).toBeInstanceOf(AttnkitError);
    }
    const e = new KernelUnavailableError({ caller: Symbol('c'), kernel: null, supported: 'simd', hint: undefined } as never);
    expect(e.message).toBe("symbol c: the 'null' kernel does not run in this engine (its WebAssembly does not validate); the ones that do: none.");
    expect(e.supported).toEqual([]);
    expect(new InferenceOnlyError(null as never).message).toBe("undefined: has no gradient, and was called while tfjs records gradients (inside grad, variableGrads or an optimizer's minimize).");
  });
});
