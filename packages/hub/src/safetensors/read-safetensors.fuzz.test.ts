import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSafetensors } from './read-safetensors.js';
import { SafetensorsError } from './safetensors-error.js';
import { writeSafetensors } from './write-safetensors.js';

/** The property: a result whose tensors fit their shapes, or a SafetensorsError — nothing else. */
function readsOrRejects(bytes: Uint8Array): boolean {
  try {
    const { tensors } = readSafetensors(bytes);
    for (const entry of tensors.values()) {
      if (entry.values.length !== entry.shape.reduce((n, s) => n * s, 1)) return false;
    }
    return true;
  } catch (error) {
    if (error instanceof SafetensorsError) return true;
    throw error; // an untyped exception fails the property and is shown with its counterexample
  }
}

const valid = writeSafetensors({
  a: { shape: [2, 3], values: Float32Array.of(1, 2, 3, 4, 5, 6) },
  b: { shape: [4], values: Float32Array.of(-1, 0, 1, 2) },
  c: { shape: [0], values: new Float32Array(0) },
});
const RUNS = Number(process.env['ATTNKIT_FUZZ_RUNS'] ?? 4000); // 3 properties × 4000 = 12 000 per CI run

describe(`readSafetensors fuzzing (fast-check, ${3 * RUNS} cases)`, () => {
  it('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 256 }), readsOrRejects), { numRuns: RUNS, seed: 1 });
  });

  it('a valid file with random byte edits and truncation', () => {
    const edits = fc.array(fc.tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 });
    fc.assert(
      fc.property(edits, fc.nat(valid.length), (changes, cut) => {
        const bytes = valid.slice(0, Math.max(cut, 0) || valid.length);
        for (const [at, value] of changes) if (at < bytes.length) bytes[at] = value;
        return readsOrRejects(bytes);
      }),
      { numRuns: RUNS, seed: 2 },
    );
  });

  it('structurally random headers (dtypes, shapes, offsets, __proto__ names) over random data', () => {
    const entry = fc.record({
      dtype: fc.oneof(fc.constantFrom('F32', 'F16', 'BF16', 'I32', 'I64', 'F64', 'U8'), fc.anything()),
      shape: fc.oneof(fc.array(fc.integer({ min: -2, max: 6 }), { maxLength: 3 }), fc.anything()),
      data_offsets: fc.oneof(fc.tuple(fc.integer({ min: -4, max: 80 }), fc.integer({ min: -4, max: 80 })), fc.anything()),
    });
    const header = fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', '__metadata__', 'constructor')), entry, { maxKeys: 4 });
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 80 }), (h, data) => {
        const json = new TextEncoder().encode(JSON.stringify(h));
        const bytes = new Uint8Array(8 + json.length + data.length);
        new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
        bytes.set(json, 8);
        bytes.set(data, 8 + json.length);
        return readsOrRejects(bytes);
      }),
      { numRuns: RUNS, seed: 3 },
    );
    expect(({} as Record<string, unknown>)['dtype']).toBeUndefined(); // no prototype pollution
  });
});
