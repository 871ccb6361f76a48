import { InvalidArgumentError, checkInteger, checkObject, describeValue } from '@attnkit/errors';
import { checkFlatArray } from './check-flat-array.js';
import { headMajorLayout, type FusedAttentionLayout, type FusedAttentionProblem } from './fused-attention-problem.js';

const LOWEST_FLOAT32 = -3.4028234663852886e38;
const f32 = Math.fround;

/**
 * The fused attention in plain JavaScript, one query row at a time, in float32 steps (each
 * product and sum rounded with `Math.fround`) and in the wasm kernel's order where it matters: the
 * scores are `Σ_d f32(q·scale)·k` in order of d, plus the bias. Then attnkit's masked softmax
 * (`maskedSoftmax` in `@attnkit/masks`): max and sum over allowed entries only, a row whose max is
 * not finite shifted by 0, a row whose sum is 0 all zeros, a NaN among allowed scores a NaN row.
 * The oracle of the kernel tests (and the `'js'` kernel).
 *
 * @returns `out [B, H, T, Dv]`
 * @example
 * const out = fusedAttentionReference({ batch: 1, heads: 1, queryLength: 2, keyLength: 3, headDim: 4, valueDim: 4, scale: 0.5, query, key, value });
 */
export function fusedAttentionReference(problem: FusedAttentionProblem): Float32Array {
  const caller = 'fusedAttentionReference';
  checkObject(problem, { caller, argument: 'problem', expected: 'a fused attention problem { batch, heads, queryLength, keyLength, headDim, valueDim, scale, query, key, value, mask?, bias? }' });
  for (const key of ['batch', 'heads', 'queryLength', 'keyLength', 'headDim', 'valueDim'] as const) checkInteger(problem[key], { caller, argument: `problem.${key}`, min: 0 });
  if (typeof problem.scale !== 'number' || !Number.isFinite(problem.scale)) throw new InvalidArgumentError({ caller, argument: 'problem.scale', expected: 'a finite number', received: describeValue(problem.scale) });
  const { batch, heads, queryLength: t, keyLength: s, headDim: d, valueDim: dv, query, key, value, mask, bias } = problem;
  const layout = problem.layout === undefined ? { query: headMajorLayout(heads, t, d), key: headMajorLayout(heads, s, d), value: headMajorLayout(heads, s, dv), out: headMajorLayout(heads, t, dv) } : checkLayout(problem.layout, caller);
  const extent = (l: { offset: number; batch: number; heads: number; rows: number }, rows: number, width: number) => batch * heads * rows * width === 0 ? 0 : l.offset + (batch - 1) * l.batch + (heads - 1) * l.heads + (rows - 1) * l.rows + width;
  if (extent(layout.out, t, dv) > batch * heads * t * dv) throw new InvalidArgumentError({ caller, argument: 'problem.layout.out', expected: `a layout within the output's B·H·T·Dv = ${batch * heads * t * dv} values`, received: `one reaching ${extent(layout.out, t, dv)}` });
  checkRows(mask, 'Uint8Array', 'problem.mask', [batch, heads, t, s], caller);
  checkRows(bias, 'Float32Array', 'problem.bias', [batch, heads, t, s], caller);
  checkFlatArray(query, 'Float32Array', extent(layout.query, t, d), caller, 'problem.query');
  checkFlatArray(key, 'Float32Array', extent(layout.key, s, d), caller, 'problem.key');
  checkFlatArray(value, 'Float32Array', extent(layout.value, s, dv), caller, 'problem.value');
  const { query: lq, key: lk, value: lv, out: lo } = layout;
  const scale = f32(problem.scale);
  const out = new Float32Array(batch * heads * t * dv);
  const scores = new Float64Array(s);
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < heads; h++) {
      const [qHead, kHead, vHead, oHead] = [lq, lk, lv, lo].map((l) => l.offset + b * l.batch + h * l.heads) as [number, number, number, number];
      for (let i = 0; i < t; i++) {
        const q = qHead + i * lq.rows;
        const maskRow = mask === undefined ? -1 : b * mask.strides[0] + h * mask.strides[1] + i * mask.strides[2];
        const biasRow = bias === undefined ? -1 : b * bias.strides[0] + h * bias.strides[1] + i * bias.strides[2];
        const allowed = (j: number) => mask === undefined || mask.values[maskRow + j] !== 0;
        let max = LOWEST_FLOAT32;
        for (let j = 0; j < s; j++) {
          let score = 0;
          for (let c = 0; c < d; c++) score = f32(score + f32(f32((query[q + c] as number) * scale) * (key[kHead + j * lk.rows + c] as number)));
          if (bias !== undefined) score = f32(score + (bias.values[biasRow + j] as number));
          scores[j] = score;
          if (allowed(j) && max < score) max = score;
        }
        const shift = Number.isFinite(max) ? max : 0;
        let total = 0;
        for (let j = 0; j < s; j++) {
          const e = allowed(j) ? f32(Math.exp(f32((scores[j] as number) - shift))) : 0;
          scores[j] = e;
          total += e;
        }
        const inverse = total === 0 ? 0 : f32(1 / f32(total));
        for (let c = 0; c < dv; c++) {
          let sum = 0;
          for (let j = 0; j < s; j++) sum = f32(sum + f32((scores[j] as number) * (value[vHead + j * lv.rows + c] as number)));
          out[oHead + i * lo.rows + c] = f32(sum * inverse);
        }
      }
    }
  }
  return out;
}

/** A layout's four operand layouts, each `{ offset, batch, heads, rows }` of integers ≥ 0, or a typed error naming the field. */
function checkLayout(layout: unknown, caller: string): FusedAttentionLayout {
  checkObject(layout, { caller, argument: 'problem.layout', expected: 'an object { query, key, value, out } of operand layouts { offset, batch, heads, rows }' });
  for (const operand of ['query', 'key', 'value', 'out'] as const) {
    const given = (layout as Record<string, unknown>)[operand];
    checkObject(given, { caller, argument: `problem.layout.${operand}`, expected: 'an operand layout { offset, batch, heads, rows }' });
    for (const field of ['offset', 'batch', 'heads', 'rows'] as const) checkInteger((given as Record<string, unknown>)[field], { caller, argument: `problem.layout.${operand}.${field}`, min: 0 });
  }
  return layout as FusedAttentionLayout;
}

/** An optional mask or bias: `{ values, strides: [B, H, T] }` whose values cover every row of S it is read at, or a typed error. */
function checkRows(rows: unknown, kind: 'Uint8Array' | 'Float32Array', argument: string, [batch, heads, t, s]: readonly [number, number, number, number], caller: string): void {
  if (rows === undefined) return;
  checkObject(rows, { caller, argument, expected: `absent, or { values: ${kind} [B|1, H|1, T|1, S], strides: [batch, heads, query] }` });
  const { values, strides } = rows as { values?: unknown; strides?: unknown };
  if (!Array.isArray(strides) || strides.length !== 3) throw new InvalidArgumentError({ caller, argument: `${argument}.strides`, expected: 'three element strides [batch, heads, query] (0 where broadcast)', received: describeValue(strides) });
  const [sb, sh, st] = strides.map((stride, i) => checkInteger(stride, { caller, argument: `${argument}.strides[${i}]`, min: 0 })) as [number, number, number];
  const needed = batch * heads * t * s === 0 ? 0 : (batch - 1) * sb + (heads - 1) * sh + (t - 1) * st + s;
  checkFlatArray(values, kind, needed, caller, `${argument}.values`);
}
