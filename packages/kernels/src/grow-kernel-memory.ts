import { ResourceLimitError } from '@attnkit/errors';

const PAGE = 65536;
/** The C kernels index with int32 offsets: at most 2 GiB of module memory. */
export const MAX_KERNEL_BYTES = 2 ** 31;

/** What a failed growth is reported as: the entry point, what the bytes hold, which kernel. */
export interface KernelMemoryRequest {
  readonly caller: string;
  readonly what: string;
  readonly kernel: string;
}

/**
 * Grows a kernel module's memory so that bytes `[0, end)` exist (never shrinks it), or throws a
 * `ResourceLimitError` naming what needed the bytes: past the kernels' 2 GiB addressing, or when
 * the engine refuses to grow.
 *
 * @example
 * growKernelMemory(memory, at.end, { caller: 'f32MatMul', what: 'the buffers of a [1024, 384] x [1536, 384]ᵀ product', kernel: 'simd' });
 */
export function growKernelMemory(memory: WebAssembly.Memory, end: number, request: KernelMemoryRequest): void {
  const { caller, what, kernel } = request;
  const hint = 'Split the rows into smaller batches.';
  if (end > MAX_KERNEL_BYTES) {
    throw new ResourceLimitError({ caller, what, backend: `the ${kernel} kernel`, bytes: end, limit: MAX_KERNEL_BYTES, rule: 'the kernels address at most 2 GiB', hint });
  }
  const missing = end - memory.buffer.byteLength;
  if (missing <= 0) return;
  try {
    memory.grow(Math.ceil(missing / PAGE));
  } catch (cause) {
    throw new ResourceLimitError({ caller, what, backend: `the ${kernel} kernel`, bytes: end, limit: memory.buffer.byteLength, rule: `the engine refused to grow the module's memory: ${String(cause)}`, hint });
  }
}
