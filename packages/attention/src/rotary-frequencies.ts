import { checkInteger, checkOptionKeys } from '@attnkit/errors';
import { checkRotaryConfig, type ResolvedRotaryConfig } from './check-rotary-config.js';
import type { RopeType, RotaryConfig } from './rotary-config.js';

/** What {@link rotaryFrequencies} returns. */
export interface RotaryFrequencies {
  readonly ropeType: RopeType;
  /** R, the rotated width of a head (the first R of D dimensions; R = D without a partial rotary factor). */
  readonly rotaryDim: number;
  /** `inv_freq`, `[R / 2]`: the angle of position p in pair i is `p · inverseFrequencies[i]`. */
  readonly inverseFrequencies: Float32Array;
  /** The factor on cos and sin (`attention_scaling`: 1, except for yarn). */
  readonly attentionScaling: number;
}

/** Options of {@link rotaryFrequencies}. */
export interface RotaryFrequencyOptions {
  /** `dynamic` only: the sequence length (largest position id + 1) the frequencies are for; past `maxPositionEmbeddings` they are rescaled. */
  readonly seqLen?: number;
}

const f32 = Math.fround;

/** `base ** (i / dim)` for i = 0, 2, ..., dim − 2, in float32 as torch computes it. */
function powers(base: number, dim: number): Float32Array {
  const out = new Float32Array(dim / 2);
  for (let i = 0; i < out.length; i++) out[i] = f32(Math.pow(f32(base), f32((2 * i) / dim)));
  return out;
}

const inverse = (values: Float32Array): Float32Array => values.map((v) => f32(1 / v));

/** transformers' `_compute_dynamic_ntk_parameters` with a tensor `seq_len` (the forward pass): float32 from `factor * seq_len` on. */
function dynamicBase(c: ResolvedRotaryConfig, seqLen: number): number {
  const mpe = c.maxPositionEmbeddings as number;
  const length = Math.max(seqLen, mpe);
  const ratio = f32(f32(f32(f32(c.factor) * f32(length)) / f32(mpe)) - f32(c.factor - 1));
  return f32(f32(c.ropeTheta) * f32(Math.pow(ratio, f32(c.rotaryDim / (c.rotaryDim - 2)))));
}

/** transformers' `_compute_llama3_parameters`. */
function llama3(c: ResolvedRotaryConfig): Float32Array {
  const frequencies = inverse(powers(c.ropeTheta, c.rotaryDim));
  const lowWavelength = f32(c.originalMaxPositionEmbeddings / c.lowFreqFactor);
  const highWavelength = f32(c.originalMaxPositionEmbeddings / c.highFreqFactor);
  return frequencies.map((frequency) => {
    const wavelength = f32(f32(2 * Math.PI) / frequency);
    const scaled = wavelength > lowWavelength ? f32(frequency / f32(c.factor)) : frequency;
    if (wavelength < highWavelength || wavelength > lowWavelength) return scaled;
    const smooth = f32(f32(f32(f32(c.originalMaxPositionEmbeddings) / wavelength) - f32(c.lowFreqFactor)) / f32(c.highFreqFactor - c.lowFreqFactor));
    return f32(f32(f32(f32(1 - smooth) * scaled) / f32(c.factor)) + f32(smooth * scaled));
  });
}

/** transformers' `_compute_yarn_parameters`: the frequencies and the attention factor. */
function yarn(c: ResolvedRotaryConfig): [Float32Array, number] {
  const mscaleOf = (scale: number, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  const attentionFactor = c.attentionFactor ?? (c.mscale && c.mscaleAllDim ? mscaleOf(c.factor, c.mscale) / mscaleOf(c.factor, c.mscaleAllDim) : mscaleOf(c.factor));
  const dim = c.rotaryDim;
  const correction = (rotations: number) => (dim * Math.log(c.originalMaxPositionEmbeddings / (rotations * 2 * Math.PI))) / (2 * Math.log(c.ropeTheta));
  let [low, high] = [correction(c.betaFast), correction(c.betaSlow)];
  if (c.truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  [low, high] = [Math.max(low, 0), Math.min(high, dim - 1)];
  if (low === high) high += 0.001; // transformers' guard against a zero-width ramp
  const positions = powers(c.ropeTheta, dim);
  const frequencies = positions.map((p, i) => {
    const ramp = Math.min(1, Math.max(0, f32(f32(i - f32(low)) / f32(high - low))));
    const extrapolation = f32(1 - ramp);
    const interpolated = f32(f32(1 / f32(f32(c.factor) * p)) * f32(1 - extrapolation));
    return f32(interpolated + f32(f32(1 / p) * extrapolation));
  });
  return [frequencies, attentionFactor];
}

/**
 * The inverse frequencies of rotary position embeddings and the factor on cos and sin, as
 * transformers 5.17 computes them for a config (`ROPE_INIT_FUNCTIONS[rope_type](config)`; for
 * `default`, a rotary module's `compute_default_rope_parameters`): `default`, `linear` (frequencies
 * divided by `factor`), `dynamic` (NTK: the base grows with `seqLen` past `maxPositionEmbeddings`),
 * `llama3` (long wavelengths divided by `factor`, a smooth ramp between) and `yarn` (a ramp between
 * interpolation and extrapolation, and `attentionScaling`). Float32 step for step as torch computes
 * them, so the values agree to the last bit or one float32 rounding. Unknown types and bad or
 * missing parameters are `InvalidArgumentError`s naming the key. `partialRotaryFactor` is honoured
 * for every type, as GPT-NeoX, Phi and the scaled types do (Llama's own default ignores it; its
 * configs have none).
 *
 * Returns pure numbers: `inverseFrequencies` `[R / 2]`, R = `floor(D · partialRotaryFactor)`.
 *
 * @example
 * rotaryFrequencies({ headDim: 128, ropeTheta: 500000, ropeType: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 });
 * rotaryFrequencies({ headDim: 64, ropeType: 'dynamic', factor: 2, maxPositionEmbeddings: 2048 }, { seqLen: 3000 });
 */
export function rotaryFrequencies(config: RotaryConfig, options: RotaryFrequencyOptions = {}): RotaryFrequencies {
  const caller = 'rotaryFrequencies';
  const c = checkRotaryConfig(config, caller);
  const { seqLen } = checkOptionKeys(options, ['seqLen'], caller);
  if (seqLen !== undefined) checkInteger(seqLen, { caller, argument: 'seqLen', min: 1 });
  return frequenciesOf(c, seqLen);
}

/** {@link rotaryFrequencies} of a checked config. */
export function frequenciesOf(c: ResolvedRotaryConfig, seqLen?: number): RotaryFrequencies {
  const { ropeType, rotaryDim } = c;
  const plain = () => inverse(powers(c.ropeTheta, rotaryDim));
  switch (ropeType) {
    case 'linear':
      return { ropeType, rotaryDim, inverseFrequencies: plain().map((v) => f32(v / f32(c.factor))), attentionScaling: 1 };
    case 'dynamic': {
      const grown = seqLen !== undefined && seqLen > (c.maxPositionEmbeddings as number);
      return { ropeType, rotaryDim, inverseFrequencies: grown ? inverse(powers(dynamicBase(c, seqLen), rotaryDim)) : plain(), attentionScaling: 1 };
    }
    case 'llama3':
      return { ropeType, rotaryDim, inverseFrequencies: llama3(c), attentionScaling: 1 };
    case 'yarn': {
      const [inverseFrequencies, attentionScaling] = yarn(c);
      return { ropeType, rotaryDim, inverseFrequencies, attentionScaling };
    }
    default:
      return { ropeType, rotaryDim, inverseFrequencies: plain(), attentionScaling: 1 };
  }
}
