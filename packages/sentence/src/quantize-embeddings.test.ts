import { tensor2d } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import sentenceFixtures from '@attnkit/reference/fixtures/sentence.json' with { type: 'json' };
import { quantizationRanges, quantizeEmbeddings } from './quantize-embeddings.js';

interface Case { options: { precision?: string }; embeddings: number[][]; ranges?: number[][] }
const fixtures = sentenceFixtures as unknown as Record<string, { cases: Case[] }>;

beforeAll(() => useBackend('cpu'));

describe('quantizeEmbeddings equals sentence-transformers quantize_embeddings', () => {
  it('on the reference embeddings of every folder: each precision, exact where float32 rounding of the input keeps the level', async () => {
    let exact = 0;
    let rounding = 0;
    for (const { cases } of Object.values(fixtures)) {
      const floats = cases[0]!.embeddings; // the float64 defaults every quantized case was computed from
      for (const c of cases.filter((x) => x.options.precision !== undefined)) {
        const precision = c.options.precision as 'int8' | 'uint8' | 'binary' | 'ubinary';
        const input = tensor2d(floats);
        const ranges = c.ranges === undefined ? undefined : { min: c.ranges[0]!, max: c.ranges[1]! };
        const ours = await quantizeEmbeddings(input, precision, ranges === undefined ? {} : { ranges });
        input.dispose();
        const expected = c.embeddings.flat();
        expect(ours.shape).toEqual([c.embeddings.length, c.embeddings[0]!.length]);
        expected.forEach((value, i) => {
          if (ours.values[i] === value) return void exact++;
          // the only allowed difference: the float64 value and its float32 rounding sit on two sides of a boundary
          const width = floats[0]!.length;
          const [row, d] = [Math.floor(i / ours.shape[1]), i % ours.shape[1]];
          const x = floats[row]![d]!;
          const level = (v: number) => Math.floor((v - ranges!.min[d]!) / ((ranges!.max[d]! - ranges!.min[d]!) / 255));
          expect(precision.endsWith('int8') && width > 0 && level(x) !== level(Math.fround(x)), `${precision} value ${i}`).toBe(true);
          rounding++;
        });
      }
    }
    console.log(`quantizeEmbeddings: ${exact} values exact, ${rounding} one level apart through float32 rounding of the input`);
    expect(exact).toBeGreaterThan(8 * rounding); // and every other value was explained above
  });

  it('packs one bit per dimension, first dimension in the high bit, ceil(E / 8) bytes per row', async () => {
    const x = tensor2d([[1, -1, 0, 2, 0.5, -3, 4, 1, 7, -2]]); // 10 dims -> 2 bytes
    expect([...(await quantizeEmbeddings(x, 'ubinary')).values]).toEqual([0b10011011, 0b10000000]);
    expect([...(await quantizeEmbeddings(x, 'binary')).values]).toEqual([0b10011011 - 128, 0]);
    expect((await quantizeEmbeddings(x, 'binary')).shape).toEqual([1, 2]);
  });

  it('maps each dimension onto 0..255 between its min and max (a constant dimension to 0), int8 shifted by -128', async () => {
    const x = tensor2d([[0, 5], [1, 5], [0.5, 5]]);
    expect([...(await quantizeEmbeddings(x, 'uint8')).values]).toEqual([0, 0, 255, 0, 127, 0]);
    expect([...(await quantizeEmbeddings(x, 'int8')).values]).toEqual([-128, -128, 127, -128, -1, -128]);
    expect(await quantizationRanges(x)).toEqual({ min: new Float32Array([0, 5]), max: new Float32Array([1, 5]) });
    expect([...(await quantizeEmbeddings(x, 'uint8', { ranges: { min: [0, 0], max: [2, 10] } })).values]).toEqual([0, 127, 127, 127, 63, 127]);
  });

  it.each<[() => Promise<unknown>, string]>([
    [() => quantizeEmbeddings(tensor2d([[1]]), 'float16' as never), 'quantizeEmbeddings: \'precision\' must be \'int8\', \'uint8\', \'binary\' or \'ubinary\'; received "float16".'],
    [() => quantizeEmbeddings(tensor2d([[1, 2]]), 'int8', { ranges: { min: [0], max: [1] } }), "quantizeEmbeddings: 'ranges.min' must be quantization ranges { min, max }: two lists of E = 2 numbers (from quantizationRanges()); received array [0]."],
    [() => quantizationRanges(tensor2d([], [0, 3])), "quantizationRanges: 'embeddings' must be at least one row to calibrate on; received [0, E]."],
  ])('rejects bad input %#', async (call, message) => {
    const error = await call().then(() => new Error('no error'), (e: Error) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });
});

describe('quantizeEmbeddings options', () => {
  it('reads ranges null as absent (computed, as ranges=None) and refuses options or ranges it cannot read by name', async () => {
    const embeddings = tensor2d([[0, 1], [2, -1]]);
    expect(await quantizeEmbeddings(embeddings, 'uint8', { ranges: null } as never)).toEqual(await quantizeEmbeddings(embeddings, 'uint8'));
    await expect(quantizeEmbeddings(embeddings, 'int8', null as never)).rejects.toThrow("quantizeEmbeddings: 'options' must be an options object; received null.");
    await expect(quantizeEmbeddings(embeddings, 'int8', { range: {} } as never)).rejects.toThrow(/^quantizeEmbeddings: 'options' must be an object with only the keys ranges; received the unknown key 'range'/);
    await expect(quantizeEmbeddings(embeddings, 'int8', { ranges: Number.NaN } as never)).rejects.toThrow(InvalidArgumentError);
    await expect(quantizeEmbeddings(embeddings, 'int8', { ranges: { min: [0], max: [1] } })).rejects.toThrow(/^quantizeEmbeddings: 'ranges\.min' must be quantization ranges \{ min, max \}: two lists of E = 2 numbers/);
    embeddings.dispose();
  });
});
