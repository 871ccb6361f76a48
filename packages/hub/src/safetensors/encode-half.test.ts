import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { thrown } from '@attnkit/test-utils';
import { decodeHalf } from './decode-float.js';
import { encodeHalf } from './encode-half.js';

describe('encodeHalf', () => {
  it.each(['F16', 'BF16'] as const)('is the exact inverse of decodeHalf for every %s value but NaN payloads', (dtype) => {
    const all = new Uint8Array(new Uint16Array(Array.from({ length: 65536 }, (_, i) => i)).buffer);
    const wide = decodeHalf(all, dtype);
    const back = new Uint16Array(encodeHalf(wide, dtype).buffer);
    const source = new Uint16Array(all.buffer);
    for (let i = 0; i < 65536; i++) if (!Number.isNaN(wide[i])) expect(back[i], `0x${i.toString(16)}`).toBe(source[i]);
    expect(Number.isNaN(decodeHalf(encodeHalf(Float32Array.of(NaN), dtype), dtype)[0])).toBe(true);
  });

  it('rounds to nearest, ties to even, overflows to Infinity and underflows to zero as PyTorch does', () => {
    const f16 = (v: number) => decodeHalf(encodeHalf(Float32Array.of(v), 'F16'), 'F16')[0];
    expect(f16(1 + 2 ** -11)).toBe(1); // a tie: to the even neighbour
    expect(f16(1 + 3 * 2 ** -11)).toBe(1 + 2 ** -9);
    expect(f16(0.1)).toBe(0.0999755859375);
    expect(f16(65520)).toBe(Infinity);
    expect(f16(-1e6)).toBe(-Infinity);
    expect(f16(2 ** -25)).toBe(0); // half the smallest subnormal: a tie, to zero
    expect(f16(1.5 * 2 ** -25)).toBe(2 ** -24);
    expect(decodeHalf(encodeHalf(Float32Array.of(1 + 2 ** -8), 'BF16'), 'BF16')[0]).toBe(1); // a tie
    expect(decodeHalf(encodeHalf(Float32Array.of(3.14159), 'BF16'), 'BF16')[0]).toBe(3.140625);
  });

  it('refuses what is not a Float32Array or a half dtype', () => {
    expect(thrown(() => encodeHalf([1] as never, 'F16'))).toBeInstanceOf(InvalidArgumentError);
    expect(thrown(() => encodeHalf(Float32Array.of(1), 'F8' as never)).message).toBe("encodeHalf: 'dtype' must be 'F16' or 'BF16'; received string 'F8'.");
  });
});
