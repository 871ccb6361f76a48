import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { F32_KERNEL_NAMES } from './f32-kernel-name.js';
import { f32Kernel, f32Kernels } from './f32-kernels.js';
import { KernelUnavailableError } from './kernel-unavailable-error.js';

describe('f32Kernels and f32Kernel', () => {
  it('report the kernels that validate here, fastest first, and prefer the first', () => {
    const report = f32Kernels();
    expect(report.supported).toEqual(F32_KERNEL_NAMES.filter((name) => report.supported.includes(name))); // in the names' order
    expect(report.supported).toContain('simd');
    expect(report.preferred).toBe(report.supported[0]);
  });

  it('return the preferred kernel without a name, and the named one', () => {
    expect(f32Kernel(undefined, 'test').name).toBe(f32Kernels().preferred);
    expect(f32Kernel('simd', 'test').name).toBe('simd');
  });

  it('refuse an unknown name with InvalidArgumentError, and a kernel the engine lacks with KernelUnavailableError', () => {
    expect(() => f32Kernel('sse' as never, 'f32MatMul')).toThrow(InvalidArgumentError);
    expect(() => f32Kernel('sse' as never, 'f32MatMul')).toThrow(/f32MatMul: 'kernel' must be one of 'relaxed-simd', 'simd'; received string 'sse'/);
    if (!f32Kernels().supported.includes('relaxed-simd')) expect(() => f32Kernel('relaxed-simd', 'f32MatMul')).toThrow(KernelUnavailableError);
  });
});
