import { concat, engine, keep, slice, tensor2d, tensor4d, type Tensor, type Tensor2D, type Tensor4D } from '@tensorflow/tfjs-core';
import { ATTENTION_ROWS_MAX_QUERIES, ATTENTION_ROWS_MAX_WORK, DECODE_ATTENTION_KERNEL, KV_APPEND_KERNEL, kernelRoute } from '@attnkit/kernels';
import { InvalidArgumentError, UseAfterDisposeError, checkInteger, checkObject, checkOptionKeys, checkTensor, describeValue, formatShape } from '@attnkit/errors';
import { decoderMask, readMaskIds } from '@attnkit/masks';

/** Configuration of {@link KvCache}. */
export interface KvCacheConfig {
  /** How many attention layers store keys and values. */
  readonly numLayers: number;
  /** The most key positions the cache holds (prompt, padding and generated tokens): a step past it is refused, never truncated. */
  readonly maxLength: number;
}

/** Options of {@link KvCache.step}. */
export interface KvCacheStepOptions {
  /** Build `attentionMask` with this sliding window (`slidingWindowCausalMask`); absent: full causal. */
  readonly slidingWindow?: number | undefined;
}

/** What {@link KvCache.step} returns for the T new tokens (the caller disposes both tensors). */
export interface DecoderStep {
  /** int32 `[B, T]`: each row's own count of tokens, continued from the previous steps (padding: 0). */
  readonly positionIds: Tensor2D;
  /** bool `[B, 1, T, S]`, S = every position so far: causal (or sliding) AND not padding (`decoderMask`). */
  readonly attentionMask: Tensor4D;
}

/**
 * A layer's keys and values as the cache holds them, lent by {@link KvCache.append}: `key [B, Hkv, C, D]`
 * and `value [B, Hkv, C, Dv]` whose first `length` positions (S) are set. C = S, except on wasm, where
 * the cache grows ahead (C ≥ S) so that a step writes its rows in place. The tensors stay the cache's:
 * do not dispose them, and do not use them after the layer's next `append` or `update`, or `dispose()`.
 */
export interface KvCacheView {
  /** `[B, Hkv, C, D]`, the first S positions set. */
  readonly key: Tensor;
  /** `[B, Hkv, C, Dv]`, the first S positions set. */
  readonly value: Tensor;
  /** S: the positions set. */
  readonly length: number;
}

/** A layer's stored keys and values `[B, Hkv, C, D]`, and how many positions (S ≤ C) they hold. */
interface LayerEntry {
  key: Tensor | undefined;
  value: Tensor | undefined;
  length: number;
}

/** The positions a layer that must hold `needed` grows to on wasm: twice as many (at least 16), up to `maxLength`. */
function capacityFor(needed: number, maxLength: number): number {
  return Math.min(maxLength, Math.max(16, 2 * needed));
}

/** The first `length` positions of `[B, Hkv, C, D]` (the tensor itself when C = length: the caller must not keep both). */
function firstPositions(x: Tensor, length: number): Tensor {
  return length === x.shape[2] ? x : slice(x, 0, [x.shape[0] as number, x.shape[1] as number, length, x.shape[3] as number]);
}

/** The new tokens' 0/1 `attention_mask` `[B, T]`: a tensor or nested rows. */
/** What {@link KvCache.attendStep} takes: a decoding step's projections and how to read them. */
export interface KvCacheAttendStep {
  /** `[B, 1, Wq]`: the H query heads from column `queryAt`. */
  readonly query: Tensor;
  /** `[B, 1, Wk]`: the layer's Hkv key heads from column `keyAt`. */
  readonly key: Tensor;
  /** `[B, 1, Wv]`: the layer's Hkv value heads from column `valueAt`. */
  readonly value: Tensor;
  /** H, a multiple of the layer's Hkv. */
  readonly heads: number;
  /** The module's Hkv and D, checked against the layer's (a typed error when they differ). */
  readonly kvHeads?: number | undefined;
  readonly headDim?: number | undefined;
  readonly queryAt: number;
  readonly keyAt: number;
  readonly valueAt: number;
  /** Rotary `cos` `[B, 1, R]` of this step's positions (with `sin`); absent: no rotary. */
  readonly cos?: Tensor | undefined;
  readonly sin?: Tensor | undefined;
  /** Bool `[B|1, 1, 1, S]`, true = may attend: the step's `attentionMask`. */
  readonly mask?: Tensor | undefined;
  /** Score scale, default 1/√D. */
  readonly scale?: number | undefined;
  /** Qwen3's q/k norms: RMSNorm weights `[D]` of each query and key head, applied before rotary (both or neither, with `normEpsilon`). */
  readonly queryNorm?: Tensor | undefined;
  readonly keyNorm?: Tensor | undefined;
  /** The q/k norms' eps (`rms_norm_eps`), a finite number > 0; required with them. */
  readonly normEpsilon?: number | undefined;
}

export type TokenMask = Tensor2D | readonly (readonly number[] | ArrayLike<number>)[];

/**
 * The keys and values of a decoder's attention layers across generation steps (transformers'
 * `DynamicCache`), with the bookkeeping of a left-padded batch kept beside them: which positions are
 * padding, and each row's next position id. A step is `step(tokenMask)` — the new tokens' 0/1
 * `attention_mask` `[B, T]` (left padding in the prompt, ones after) — which returns their
 * `positionIds` and the `attentionMask` over every position so far, then one `update(layer, key, value)`
 * per layer, which appends `[B, Hkv, T, D]` and returns the layer's whole `[B, Hkv, S, D]`.
 *
 * Memory is bounded: a step that would pass `maxLength` positions is an `InvalidArgumentError`
 * before anything changes (never a silent truncation). The cache holds two tensors per layer and
 * disposes the previous ones on each update, so a generation loop leaks nothing; `dispose()` frees
 * them (later use: `UseAfterDisposeError`). Keys are stored as given (after rotary, as transformers).
 *
 * @example
 * const cache = new KvCache({ numLayers: 2, maxLength: 64 });
 * const { positionIds, attentionMask } = cache.step([[0, 0, 1, 1], [1, 1, 1, 1]]); // the left-padded prompt
 * // per layer: const { key, value } = cache.update(i, k, v);        // [B, Hkv, S, D]
 * cache.step([[1], [1]]);                                              // then one token per row, step after step
 */
export class KvCache {
  readonly numLayers: number;
  readonly maxLength: number;
  #batch: number | undefined;
  /** 1 = token, 0 = padding, `[B, maxLength]`; the first `#length` positions of each row are set. */
  #tokens = new Uint8Array(0);
  /** Each row's count of tokens so far: the next token's position id. */
  #counts = new Int32Array(0);
  #length = 0;
  #stepLength = 0;
  readonly #layers: LayerEntry[];
  #disposed = false;

  constructor(config: KvCacheConfig) {
    const caller = 'KvCache';
    checkObject(config, { caller, argument: 'config', expected: 'a KvCacheConfig object ({ numLayers, maxLength })' });
    checkOptionKeys(config, ['numLayers', 'maxLength'], caller, 'config');
    this.numLayers = checkInteger(config.numLayers, { caller, argument: 'numLayers', min: 1 });
    this.maxLength = checkInteger(config.maxLength, { caller, argument: 'maxLength', min: 1, max: 2 ** 24 }); // positions stay exact in float32
    this.#layers = Array.from({ length: this.numLayers }, () => ({ key: undefined, value: undefined, length: 0 }));
  }

  /** S: the positions registered so far (every layer holds them once updated for the current step). */
  get length(): number {
    return this.#length;
  }

  /** B, fixed by the first step (undefined before). */
  get batch(): number | undefined {
    return this.#batch;
  }

  /** True once `dispose()` has freed the stored keys and values. */
  get isDisposed(): boolean {
    return this.#disposed;
  }

  /**
   * Registers T new tokens per row: `tokenMask` `[B, T]` is their `attention_mask` (1 = token, 0 =
   * padding; rows or a tensor). Returns their position ids and the attention mask of this step's
   * queries over all S = length + T positions. Every layer must have been updated for the previous
   * step; B must stay the same; S must not pass `maxLength`.
   */
  step(tokenMask: TokenMask, options: KvCacheStepOptions = {}): DecoderStep {
    const caller = 'KvCache.step';
    this.#assertLive(caller);
    const { slidingWindow } = checkOptionKeys(options, ['slidingWindow'], caller);
    const behind = this.#layers.findIndex((entry) => entry.length !== this.#length);
    if (behind >= 0) {
      throw new InvalidArgumentError({ caller, argument: 'this', expected: `a cache whose ${this.numLayers} layers were all updated for the previous step (${this.#length} positions)`, received: `layer ${behind} holding ${this.#layers[behind]!.length}`, hint: 'Call update(layer, key, value) once per layer after each step().' });
    }
    const { batch, length: count, values } = readMaskIds(tokenMask, caller, 'tokenMask');
    if (this.#batch !== undefined && batch !== this.#batch) {
      throw new InvalidArgumentError({ caller, argument: 'tokenMask', expected: `[B, T] with B = ${this.#batch}, the batch of the earlier steps`, received: formatShape([batch, count]) });
    }
    if (this.#length + count > this.maxLength) {
      throw new InvalidArgumentError({ caller, argument: 'tokenMask', expected: `at most maxLength − length = ${this.maxLength} − ${this.#length} = ${this.maxLength - this.#length} new positions`, received: `${count} ([${batch}, ${count}])`, hint: 'Create the KvCache with a larger maxLength; nothing is dropped to make room.' });
    }
    if (slidingWindow !== undefined) checkInteger(slidingWindow, { caller, argument: 'slidingWindow', min: 1 });
    if (this.#batch === undefined) {
      this.#batch = batch;
      this.#tokens = new Uint8Array(batch * this.maxLength);
      this.#counts = new Int32Array(batch);
    }
    const positions = new Int32Array(batch * count);
    for (let b = 0; b < batch; b++) {
      for (let t = 0; t < count; t++) {
        const token = values[b * count + t] as number;
        this.#tokens[b * this.maxLength + this.#length + t] = token;
        if (token === 1) positions[b * count + t] = (this.#counts[b] as number)++;
      }
    }
    this.#length += count;
    this.#stepLength = count;
    const padding = this.paddingMask();
    try {
      const attentionMask = decoderMask(count, this.#length, { padding, slidingWindow }); // [B, 1, T, S]
      return { positionIds: tensor2d(positions, [batch, count], 'int32'), attentionMask };
    } finally {
      padding.dispose();
    }
  }

  /**
   * Appends this step's keys and values of `layer` (after rotary): `key [B, Hkv, T, D]`,
   * `value [B, Hkv, T, Dv]`, T the step's length. Returns the layer's keys and values over all S
   * positions, `[B, Hkv, S, D]` and `[B, Hkv, S, Dv]` (the caller's to dispose: the cache keeps its own).
   * The copy costs S positions per step; `append` lends the cache's own tensors instead.
   */
  update(layer: number, key: Tensor, value: Tensor): { readonly key: Tensor; readonly value: Tensor } {
    const view = this.#append('KvCache.update', layer, key, value);
    const owned = (x: Tensor) => (view.length === x.shape[2] ? x.clone() : firstPositions(x, view.length)); // a clone shares the bytes: the next append then copies instead of writing in place
    return { key: owned(view.key), value: owned(view.value) };
  }

  /**
   * As `update`, but lends the layer's keys and values as the cache holds them instead of copying
   * them out: a {@link KvCacheView} `{ key [B, Hkv, C, D], value [B, Hkv, C, Dv], length: S }`, C ≥ S
   * (do not dispose them; they are valid until this layer's next `append` or `update`). On wasm the
   * layer grows ahead — to twice the positions it must hold (at least 16), up to `maxLength` — and a
   * step's rows are written in place, so a decoding step costs T positions instead of S. Attend over
   * it with `cachedAttentionOutput`, which reads only the first S positions.
   *
   * @example
   * const view = cache.append(layer, key, value);            // key [B, Hkv, C, D], view.length = S
   * const context = cachedAttentionOutput(query, view, { mask: step.attentionMask }); // [B, H, T, D]
   */
  append(layer: number, key: Tensor, value: Tensor): KvCacheView {
    return this.#append('KvCache.append', layer, key, value);
  }

  /**
   * A decoding step's attention for `layer` in one wasm kernel, from the projections as a product
   * leaves them: the step's key and value rows (rotated when `cos` and `sin` are given) are appended
   * in place, and the query heads attend over the layer's S positions. The numbers are those of
   * `append` followed by `cachedAttentionOutput` (rotary applied first), bit for bit.
   *
   * Shapes: `query [B, 1, Wq]`, `key [B, 1, Wk]`, `value [B, 1, Wv]` (one tensor may be all three:
   * a fused q/k/v product), their heads from the columns `queryAt` (H heads of D), `keyAt` and
   * `valueAt` (Hkv heads of D and Dv, the layer's); `cos`, `sin` `[B, 1, R]`; bool `mask
   * [B|1, 1, 1, S]` (a step's `attentionMask`); `queryNorm`, `keyNorm` `[D]` with `normEpsilon` (Qwen3's
   * q/k norms, each head RMSNorm-ed before rotary, as `q_norm`/`k_norm`). Returns the attended heads merged, `[B, 1, H·Dv]`
   * (the caller's), or `undefined` where the kernel does not apply — not on wasm, a step of more than
   * one position, a layer that holds no positions yet, a mask of another shape, more than 4 query heads
   * per key/value head, or work past `ATTENTION_ROWS_MAX_WORK` (the threaded attention module pays off
   * there) — and then nothing is appended: use `append` and `cachedAttentionOutput`. As `append`, it
   * ends the views earlier calls lent.
   *
   * @example
   * const output = cache.attendStep(layer, { query: qkv, key: qkv, value: qkv, heads: 9, queryAt: 0, keyAt: 576, valueAt: 768, cos, sin, mask: step.attentionMask });
   * // qkv [1, 1, 960] -> output [1, 1, 576], or undefined off wasm
   */
  attendStep(layer: number, step: KvCacheAttendStep): Tensor | undefined {
    const caller = 'KvCache.attendStep';
    this.#assertLive(caller);
    checkInteger(layer, { caller, argument: 'layer', min: 0, max: this.numLayers - 1 });
    checkObject(step, { caller, argument: 'step', expected: 'a KvCacheAttendStep object ({ query, key, value, heads, queryAt, keyAt, valueAt, cos?, sin?, mask?, scale? })' });
    const { query, key, value, heads, kvHeads, headDim, queryAt, keyAt, valueAt, cos, sin, mask, scale, queryNorm, keyNorm, normEpsilon } = checkOptionKeys(step, ['query', 'key', 'value', 'heads', 'kvHeads', 'headDim', 'queryAt', 'keyAt', 'valueAt', 'cos', 'sin', 'mask', 'scale', 'queryNorm', 'keyNorm', 'normEpsilon'], caller, 'step');
    for (const [name, t] of [['query', query], ['key', key], ['value', value]] as const) checkTensor(t, { caller, argument: `step.${name}`, dtype: 'float32', rank: 3, shape: '[B, 1, W]' });
    for (const [name, t] of [['cos', cos], ['sin', sin]] as const) if (t !== undefined) checkTensor(t, { caller, argument: `step.${name}`, dtype: 'float32', rank: 3, shape: '[B, 1, R]' });
    if (mask !== undefined) checkTensor(mask, { caller, argument: 'step.mask', dtype: 'bool', rank: 4, shape: '[B|1, 1, 1, S]' });
    checkInteger(heads, { caller, argument: 'step.heads', min: 1 });
    if (kvHeads !== undefined) checkInteger(kvHeads, { caller, argument: 'step.kvHeads', min: 1 });
    if (headDim !== undefined) checkInteger(headDim, { caller, argument: 'step.headDim', min: 1 });
    for (const [name, at] of [['queryAt', queryAt], ['keyAt', keyAt], ['valueAt', valueAt]] as const) checkInteger(at, { caller, argument: `step.${name}`, min: 0 });
    if (scale !== undefined && (typeof scale !== 'number' || !Number.isFinite(scale))) throw new InvalidArgumentError({ caller, argument: 'step.scale', expected: 'a finite number (or absent: 1/√D)', received: describeValue(scale) });
    for (const [name, t] of [['queryNorm', queryNorm], ['keyNorm', keyNorm]] as const) if (t !== undefined) checkTensor(t, { caller, argument: `step.${name}`, dtype: 'float32', rank: 1, shape: '[D]' });
    if ((queryNorm === undefined) !== (keyNorm === undefined)) throw new InvalidArgumentError({ caller, argument: 'step.keyNorm', expected: 'queryNorm and keyNorm together, or neither', received: `queryNorm ${queryNorm === undefined ? 'absent' : 'given'}, keyNorm ${keyNorm === undefined ? 'absent' : 'given'}` });
    if (queryNorm !== undefined ? typeof normEpsilon !== 'number' || !(normEpsilon > 0) || !Number.isFinite(normEpsilon) : normEpsilon !== undefined) {
      throw new InvalidArgumentError({ caller, argument: 'step.normEpsilon', expected: queryNorm !== undefined ? 'a finite number > 0 (the q/k norms\' eps)' : 'absent without queryNorm and keyNorm', received: describeValue(normEpsilon) });
    }
    if ((cos === undefined) !== (sin === undefined)) throw new InvalidArgumentError({ caller, argument: 'step.sin', expected: 'cos and sin together, or neither', received: `cos ${cos === undefined ? 'absent' : 'given'}, sin ${sin === undefined ? 'absent' : 'given'}` });
    const entry = this.#layers[layer] as LayerEntry;
    if (this.#batch === undefined || entry.length === this.#length) {
      throw new InvalidArgumentError({ caller, argument: 'layer', expected: `a layer not yet updated in this step (call step() first; each layer once per step)`, received: `${layer}, ${this.#batch === undefined ? 'before any step' : 'already updated'}` });
    }
    if (query.shape[0] !== this.#batch) throw new InvalidArgumentError({ caller, argument: 'step.query', expected: `[B, 1, W] with the step's B = ${this.#batch}`, received: formatShape(query.shape) });
    if (entry.key !== undefined && ((kvHeads !== undefined && kvHeads !== entry.key.shape[1]) || (headDim !== undefined && headDim !== entry.key.shape[3]))) {
      throw new InvalidArgumentError({ caller, argument: 'step', expected: `this layer's Hkv = ${entry.key.shape[1]} key/value heads of D = ${entry.key.shape[3]}`, received: `kvHeads=${kvHeads ?? '(absent)'}, headDim=${headDim ?? '(absent)'}` });
    }
    const maskFits = mask === undefined || (mask.shape[1] === 1 && mask.shape[2] === 1 && mask.shape[3] === this.#length);
    if (this.#stepLength !== 1 || entry.key === undefined || entry.value === undefined || !maskFits || !kernelRoute('decodeAttention', [query, key, value, cos, sin]).useKernel) return undefined;
    const [layerHeads, stored, width] = entry.key.shape.slice(1) as [number, number, number];
    for (const [name, t] of [['queryNorm', queryNorm], ['keyNorm', keyNorm]] as const) {
      if (t !== undefined && t.shape[0] !== width) throw new InvalidArgumentError({ caller, argument: `step.${name}`, expected: `a float32 [D] with this layer's D = ${width}`, received: formatShape(t.shape) });
    }
    const work = (query.shape[0] as number) * heads * this.#length * (width + (entry.value.shape[3] as number));
    if (heads / layerHeads > ATTENTION_ROWS_MAX_QUERIES || work >= ATTENTION_ROWS_MAX_WORK) return undefined; // as fusedAttention routes: the threaded attention module pays off
    const capacity = this.#length > stored ? capacityFor(this.#length, this.maxLength) : stored;
    const attrs = { heads, queryAt, keyAt, valueAt, length: entry.length, capacity, scale: scale ?? Math.sqrt(1 / width), ...(normEpsilon === undefined ? {} : { normEpsilon }) }; // fusedAttention's default, to the bit
    const [output, keys, values] = engine().runKernel(DECODE_ATTENTION_KERNEL, { query, key, value, cacheKey: entry.key, cacheValue: entry.value, ...(cos === undefined ? {} : { cos }), ...(sin === undefined ? {} : { sin }), ...(mask === undefined ? {} : { mask }), ...(queryNorm === undefined ? {} : { queryNorm, keyNorm: keyNorm! }) }, attrs as never) as unknown as Tensor[];
    entry.key.dispose(); // written in place: its memory is the new tensor's (DECODE_ATTENTION_KERNEL)
    entry.value.dispose();
    Object.assign(entry, { key: keep(keys as Tensor), value: keep(values as Tensor), length: this.#length });
    return output;
  }

  #append(caller: string, layer: number, key: Tensor, value: Tensor): KvCacheView {
    this.#assertLive(caller);
    checkInteger(layer, { caller, argument: 'layer', min: 0, max: this.numLayers - 1 });
    checkTensor(key, { caller, argument: 'key', dtype: 'float32', rank: 4, shape: '[B, Hkv, T, D]' });
    checkTensor(value, { caller, argument: 'value', dtype: 'float32', rank: 4, shape: '[B, Hkv, T, Dv]' });
    const entry = this.#layers[layer] as LayerEntry;
    if (this.#batch === undefined || entry.length === this.#length) {
      throw new InvalidArgumentError({ caller, argument: 'layer', expected: `a layer not yet updated in this step (call step() first; each layer once per step)`, received: `${layer}, ${this.#batch === undefined ? 'before any step' : 'already updated'}` });
    }
    const [heads, width, valueWidth] = entry.key === undefined ? [key.shape[1], key.shape[3], value.shape[3]] : [entry.key.shape[1], entry.key.shape[3], (entry.value as Tensor).shape[3]];
    const expected = (dim: string, last: number | undefined) => `[B, Hkv, T, ${dim}] = ${formatShape([this.#batch as number, heads as number, this.#stepLength, last as number])} (the step's B and T; this layer's Hkv and ${dim})`;
    if (key.shape[0] !== this.#batch || key.shape[1] !== heads || key.shape[2] !== this.#stepLength || key.shape[3] !== width) {
      throw new InvalidArgumentError({ caller, argument: 'key', expected: expected('D', width), received: formatShape(key.shape) });
    }
    if (value.shape[0] !== this.#batch || value.shape[1] !== heads || value.shape[2] !== this.#stepLength || value.shape[3] !== valueWidth) {
      throw new InvalidArgumentError({ caller, argument: 'value', expected: expected('Dv', valueWidth), received: formatShape(value.shape) });
    }
    const held = entry.length;
    let append: (stored: Tensor | undefined, added: Tensor) => Tensor;
    if (kernelRoute('kvAppend', [key, value]).useKernel) { // wasm: the rows written in place, the layer grown ahead when full
      const stored = entry.key?.shape[2] ?? 0;
      const capacity = this.#length > stored ? capacityFor(this.#length, this.maxLength) : stored;
      append = (layerTensor, added) => engine().runKernel(KV_APPEND_KERNEL, { cache: layerTensor ?? added, rows: added }, { length: held, capacity }) as Tensor;
    } else { // [B, Hkv, S', D] ++ [B, Hkv, T, D] (the first S' positions of a layer grown ahead on wasm before)
      append = (layerTensor, added) => {
        if (layerTensor === undefined) return added.clone();
        const first = firstPositions(layerTensor, held);
        try {
          return concat([first, added], 2);
        } finally {
          if (first !== layerTensor) first.dispose();
        }
      };
    }
    const keys = keep(append(entry.key, key));
    entry.key?.dispose(); // after an append in place its memory is the new tensor's: disposed at once (KV_APPEND_KERNEL)
    entry.key = undefined;
    let values: Tensor;
    try {
      values = keep(append(entry.value, value));
    } catch (error) { // nothing half-appended stays: the layer is emptied, and a later step() refuses the cache (its layer is behind)
      keys.dispose();
      entry.value?.dispose();
      Object.assign(entry, { value: undefined, length: 0 });
      throw error;
    }
    entry.value?.dispose();
    Object.assign(entry, { key: keys, value: values, length: this.#length });
    return { key: keys, value: values, length: this.#length };
  }

  /** bool `[B, 1, 1, S]`: true where a position so far is a token (for `decoderMask` with another window). */
  paddingMask(): Tensor4D {
    const caller = 'KvCache.paddingMask';
    this.#assertLive(caller);
    if (this.#batch === undefined) throw new InvalidArgumentError({ caller, argument: 'this', expected: 'a cache with at least one step', received: 'no step yet' });
    const batch = this.#batch;
    const padding = new Uint8Array(batch * this.#length);
    for (let b = 0; b < batch; b++) padding.set(this.#tokens.subarray(b * this.maxLength, b * this.maxLength + this.#length), b * this.#length);
    return tensor4d(padding, [batch, 1, 1, this.#length], 'bool'); // [B, S] -> [B, 1, 1, S]
  }

  /** Frees the stored keys and values. A second call, or any later use, throws `UseAfterDisposeError`. */
  dispose(): void {
    this.#assertLive('KvCache.dispose');
    for (const entry of this.#layers) {
      entry.key?.dispose();
      entry.value?.dispose();
      Object.assign(entry, { key: undefined, value: undefined });
    }
    this.#disposed = true;
  }

  #assertLive(caller: string): void {
    if (this.#disposed) throw new UseAfterDisposeError(caller);
  }
}
