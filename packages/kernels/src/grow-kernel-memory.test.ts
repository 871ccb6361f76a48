import { describe, expect, it } from 'vitest';
import { ResourceLimitError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { growKernelMemory, MAX_KERNEL_BYTES } from './grow-kernel-memory.js';

const request = { caller: 'f32MatMul', what: 'the buffers of a test product', kernel: 'simd' };

describe('growKernelMemory', () => {
  it('grows to cover [0, end) in whole pages and never shrinks', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 8 });
    growKernelMemory(memory, 3 * 65536 + 1, request);
    expect(memory.buffer.byteLength).toBe(4 * 65536);
    growKernelMemory(memory, 10, request);
    expect(memory.buffer.byteLength).toBe(4 * 65536);
  });

  it('refuses more than the kernels can address (2 GiB) with ResourceLimitError, before growing', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const error = thrown(() => growKernelMemory(memory, MAX_KERNEL_BYTES + 1, request));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/f32MatMul: .*the buffers of a test product.*the simd kernel.*the kernels address at most 2 GiB/s);
    expect(memory.buffer.byteLength).toBe(65536);
  });

  it("reports the engine's refusal to grow as ResourceLimitError with the cause", () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    const error = thrown(() => growKernelMemory(memory, 5 * 65536, request));
    expect(error).toBeInstanceOf(ResourceLimitError);
    expect(error.message).toMatch(/the engine refused to grow the module's memory: RangeError/);
  });
});
