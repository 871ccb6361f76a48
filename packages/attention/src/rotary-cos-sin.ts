import { concat, cos, expandDims, cast, getBackend, mul, sin, tensor1d, tidy, type Tensor } from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkObject, checkTensor, describeValue } from '@attnkit/errors';
import { preciseCosSin } from './precise-cos-sin.js';
import type { RotaryFrequencies } from './rotary-frequencies.js';

/** Backends whose own `cos` and `sin` are float32-accurate; the others (WebGL, WebGPU) take {@link preciseCosSin}. */
const ACCURATE_COS = new Set(['cpu', 'wasm']);

/** What {@link rotaryCosSin} returns: the position embeddings `applyRotary` takes. */
export interface RotaryCosSin {
  /** `[B, T, R]`. */
  readonly cos: Tensor;
  /** `[B, T, R]`. */
  readonly sin: Tensor;
}

/**
 * The cos and sin tables of rotary position embeddings for per-row position ids, as transformers'
 * rotary modules return them (`LlamaRotaryEmbedding.forward`): the angle of pair i at position p is
 * `p · inverseFrequencies[i]` in float32, each angle twice (`cat(freqs, freqs)`, the rotate_half
 * layout), times `attentionScaling`. Position ids are per row, so a left-padded batch (positions
 * counted from each row's first token, `positionIdsFromMask`) gets each row's own angles. On WebGL
 * and WebGPU, whose `cos` and `sin` are the GPU's approximations (1.5e-3 off at angles of 2·10^4),
 * the tables come from `preciseCosSin` (3e-7) instead.
 *
 * `positionIds` int32 `[B, T]` → `cos`, `sin` float32 `[B, T, R]` (the caller disposes both).
 *
 * @example
 * const { cos, sin } = rotaryCosSin(positionIds, rotaryFrequencies({ headDim: 64 })); // [B, T, 64] each
 */
export function rotaryCosSin(positionIds: Tensor, frequencies: RotaryFrequencies): RotaryCosSin {
  const caller = 'rotaryCosSin';
  checkTensor(positionIds, { caller, argument: 'positionIds', dtype: 'int32', rank: 2, shape: '[B, T]', dtypeHint: 'Position ids are int32 (positionIdsFromMask() makes them from an attention mask).' });
  const { inverseFrequencies, attentionScaling } = checkObject(frequencies, { caller, argument: 'frequencies', expected: 'the result of rotaryFrequencies() ({ inverseFrequencies, attentionScaling, ... })' });
  if (!(inverseFrequencies instanceof Float32Array) || inverseFrequencies.length === 0) {
    throw new InvalidArgumentError({ caller, argument: 'frequencies.inverseFrequencies', expected: 'a non-empty Float32Array [R / 2]', received: describeValue(inverseFrequencies) });
  }
  if (typeof attentionScaling !== 'number' || !Number.isFinite(attentionScaling)) {
    throw new InvalidArgumentError({ caller, argument: 'frequencies.attentionScaling', expected: 'a finite number', received: describeValue(attentionScaling) });
  }
  return tidy(() => {
    const angles = mul(expandDims(cast(positionIds, 'float32'), 2), tensor1d(inverseFrequencies)); // [B, T, 1] x [R/2] -> [B, T, R/2]
    const [c, s] = ACCURATE_COS.has(getBackend()) ? [cos(angles), sin(angles)] : preciseCosSin(angles); // [B, T, R/2]
    const scale = (x: Tensor) => (attentionScaling === 1 ? x : mul(x, attentionScaling));
    return { cos: scale(concat([c, c], 2)), sin: scale(concat([s, s], 2)) }; // each angle twice: [B, T, R]
  });
}
