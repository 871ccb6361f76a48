import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { int8Kernel, int8Kernels } from './int8-kernels.js';

describe('int8Kernels', () => {
  it('reports what Node 20 runs without flags: simd and js, simd preferred', () => {
    expect(int8Kernels()).toEqual({ supported: ['simd', 'js'], preferred: 'simd' });
  });

  it('int8Kernel returns the preferred kernel by default and refuses unknown names', () => {
    expect(int8Kernel(undefined, 'f').name).toBe('simd');
    expect(int8Kernel('js', 'f').name).toBe('js');
    const error = thrown(() => int8Kernel(3 as never, 'f'));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("f: 'kernel' must be one of 'relaxed-simd', 'simd', 'js'; received number 3.");
  });
});
