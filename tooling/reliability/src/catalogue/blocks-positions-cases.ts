import { ones, tensor, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import {
  KvCache, MultiHeadAttention, TransformerEncoder, TransformerEncoderLayer, applyRotaryInterleaved, cachedAttentionOutput, attentionWeightShapes, callWithTorchMasks, checkAttentionBias, fromTorchMasks,
  fromTorchStateDict, groupedQueryAttentionOutput, multiHeadAttentionForward, preciseCosSin, resolveAttentionConfig, rotaryConfigFromHuggingFace, rotaryCosSin, rotaryFrequencies,
  scaledDotProductAttentionOutput, torchStyleCall,
} from '@attnkit/attention';
import { quantizeWeightPerChannel } from '@attnkit/kernels';
import { checkBoolMask, checkRankTwo, fromTorchBoolMask, maskedFillValue, mergeMasks, readMaskIds, slidingWindowMask, splitAdditiveMask, toTorchBoolMask, validateMask } from '@attnkit/masks';
import {
  Dropout, GemmaRMSNorm, Int8Linear, LayerNorm, Linear, Module, ModuleDict, ModuleList, StateDictError, activationByName, checkLayerConfig, checkWidth, gelu, geluTanh, initialValues,
  int8QkvProjection, linearResidualLayerNorm, linearThenActivation, loadInt8LinearLayers, quantizeLinearLayers, skipInitialization, RMSNorm, int8InputNorm, linearWithInputNorm, checkInputNormModule,
} from '@attnkit/nn';
import { checkQueryKey, checkScorer, dotProductScorer } from '@attnkit/scorers';
import type { CatalogueCase } from './catalogue-case.js';
import { acceptedEverywhere, built, REPORTS } from './kernels-positions-cases.js';
import { variants, type ValidCall } from './positions-cases.js';

const f = (shape: number[]) => zeros(shape);
const b = (shape: number[]) => ones(shape, 'bool');
/** A plain call in a tidy scope: what it returns is disposed. */
const tidyCall = (fn: () => unknown): void => tidy(() => { fn(); });
/** Runs `use` on a module built by `make` in a tidy scope, then disposes the module. */
function withModule<M extends { dispose(): void }>(make: () => M, use: (module: M) => unknown): void {
  const module = make();
  try { tidy(() => { use(module); }); } finally { module.dispose(); }
}
/** A Map of tensors that the case disposes with its other arguments (it has `dispose`). */
class OwnedMap<V> extends Map<string, V> {
  isDisposed = false;
  dispose(): void {
    this.isDisposed = true;
    for (const value of this.values()) (value as { dispose?: () => void }).dispose?.();
  }
}
const CALLER = 'a caller name, only used in messages';
const ARGUMENT = 'an argument name, only used in messages';
const ELEMENTWISE = 'an elementwise op: a scalar is a tensor of every shape';
/** A list of modules that the case disposes with its other arguments (it has `dispose`). */
const owned = <M extends { dispose(): void; isDisposed: boolean }>(items: M[]) => Object.assign(items, { dispose: () => items.forEach((m) => m.isDisposed || m.dispose()) });
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const mhaConfig = { embedDim: 8, numHeads: 2, seed: 1 };
const encoderConfig = { embedDim: 8, numHeads: 2, feedForwardDim: 16, seed: 1 };
const linear = () => new Linear(4, 4, { seed: 1 });
const int8Weight = () => quantizeWeightPerChannel({ values: new Float32Array(16).fill(0.5), inFeatures: 4, outFeatures: 4 });
/** A module with two Linear children (`first`, `second`), for the Module methods and the int8 conversions. */
class TwoLinear extends Module {
  readonly first = this.registerModule('first', new Linear(4, 4, { seed: 1 }));
  readonly second = this.registerModule('second', new Linear(4, 4, { seed: 2 }));
}
const stateDictOf = () => new OwnedMap([['first.weight', f([4, 4])], ['first.bias', f([4])], ['second.weight', f([4, 4])], ['second.bias', f([4])]]);
const torchStateDict = () => ({ in_proj_weight: f([24, 8]), in_proj_bias: f([24]), 'out_proj.weight': f([8, 8]), 'out_proj.bias': f([8]) });
const mhaWeights = () => { const m = new MultiHeadAttention(mhaConfig); const w = new OwnedMap([...m.stateDict()].map(([k, v]) => [k, v.clone()] as [string, Tensor])); m.dispose(); return w; };
const frequencies = () => rotaryFrequencies({ headDim: 4 });

const MASKS: readonly ValidCall[] = [
  { name: 'masks.checkBoolMask', args: () => [b([2, 3]), 'catalogue', 'mask', 2], call: ([m, c, a, r]) => checkBoolMask(m, c as string, a as string, r as number), optional: [2, 3],
    accepted: { ...acceptedEverywhere(CALLER, [1]), ...acceptedEverywhere(ARGUMENT, [2]) } },
  { name: 'masks.checkRankTwo', args: () => [[2, 3], { batch: 2, queryLength: 4 }, 'catalogue', 'mask'], call: ([s, t, c, a]) => checkRankTwo(s as number[], t as never, c as string, a as string),
    accepted: { ...acceptedEverywhere(CALLER, [2]), ...acceptedEverywhere(ARGUMENT, [3]) } },
  { name: 'masks.fromTorchBoolMask', args: () => [b([2, 3])], call: ([m]) => tidyCall(() => fromTorchBoolMask(m as Tensor)) },
  { name: 'masks.toTorchBoolMask', args: () => [b([2, 3])], call: ([m]) => tidyCall(() => toTorchBoolMask(m as Tensor)) },
  { name: 'masks.maskedFillValue', args: () => ['float32', 'cpu'], call: ([d, k]) => maskedFillValue(d as never, k as string), optional: [0, 1], accepted: { '1:"x"': 'a backend name: any backend but webgl without float32 textures gets the float32 fill' } },
  { name: 'masks.mergeMasks', args: () => [b([2, 3]), b([1, 3])], call: ([m, n]) => tidyCall(() => mergeMasks(m as Tensor, n as Tensor)), optional: [0, 1] },
  { name: 'masks.readMaskIds', args: () => [[[1, 1, 0]], 'catalogue', 'attentionMask'], call: ([m, c, a]) => readMaskIds(m as number[][], c as string, a as string), optional: [2],
    accepted: { ...acceptedEverywhere(CALLER, [1]), ...acceptedEverywhere(ARGUMENT, [2]) } },
  { name: 'masks.slidingWindowMask', args: () => [4, 1], call: ([l, w]) => tidyCall(() => slidingWindowMask(l as number, w as number)) },
  { name: 'masks.splitAdditiveMask', args: () => [f([2, 3])], call: ([m]) => tidyCall(() => { const { mask, bias } = splitAdditiveMask(m as Tensor); return [mask, bias]; }), accepted: { '0:a rank-0 float tensor': ELEMENTWISE } },
  { name: 'masks.validateMask', args: () => [b([2, 1, 1, 3]), { batch: 2, heads: 2, queryLength: 4, keyLength: 3 }], call: ([m, o]) => tidyCall(() => validateMask(m as Tensor, o as never)),
    options: { index: 1, keys: ['batch', 'heads', 'queryLength', 'keyLength', 'layout', 'caller', 'argument'] }, accepted: { 'caller:"x"': CALLER, 'argument:"x"': ARGUMENT } },
];

const SCORERS: readonly ValidCall[] = [
  { name: 'scorers.checkQueryKey', args: () => ['catalogue', f([2, 4, 8]), f([2, 5, 8]), {}], call: ([c, q, k, d]) => checkQueryKey(c as string, q as Tensor, k as Tensor, d as never), optional: [3],
    options: { index: 3, keys: ['queryDim', 'keyDim', 'sameDim'] }, accepted: acceptedEverywhere(CALLER, [0]) },
  { name: 'scorers.checkScorer', args: () => [dotProductScorer, 'catalogue', 'scorer'], call: ([s, c, a]) => checkScorer(s, c as string, a as string), optional: [2],
    accepted: { ...acceptedEverywhere(CALLER, [1]), ...acceptedEverywhere(ARGUMENT, [2]) } },
];

const NN: readonly ValidCall[] = [
  { name: 'nn.Dropout', args: () => [0.1], call: ([p]) => withModule(() => new Dropout(p as number), () => undefined), optional: [0] },
  { name: 'nn.Dropout.forward', args: () => [f([2, 4]), { seed: 1 }], call: ([x, o]) => withModule(() => new Dropout(0.5).train(), (m) => m.forward(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['seed'] }, accepted: { 'seed:-1': SEED, '0:a rank-0 float tensor': ELEMENTWISE } },
  { name: 'nn.GemmaRMSNorm', args: () => [4, {}], call: ([n, o]) => withModule(() => new GemmaRMSNorm(n as number, o as never), () => undefined), optional: [1], options: { index: 1, keys: ['eps'] } },
  { name: 'nn.GemmaRMSNorm.forward', args: () => [f([2, 4])], call: ([x]) => withModule(() => new GemmaRMSNorm(4), (m) => m.forward(x as Tensor)) },
  { name: 'nn.Int8Linear', args: () => [int8Weight(), f([4]), {}], call: ([w, bias, o]) => withModule(() => new Int8Linear(w as never, bias as Tensor, o as never), () => undefined), optional: [1, 2], options: { index: 2, keys: ['kernel'] } },
  { name: 'nn.Int8Linear.fromLinear', args: () => [linear(), {}], call: ([l, o]) => withModule(() => Int8Linear.fromLinear(l as Linear, o as never), () => undefined), optional: [1], options: { index: 1, keys: ['kernel'] } },
  { name: 'nn.Int8Linear.forward', args: () => [f([2, 4]), {}], call: ([x, o]) => withModule(() => new Int8Linear(int8Weight()), (m) => m.forward(x as Tensor, o as never)), optional: [1], options: { index: 1, keys: ['activation', 'residualLayerNorm', 'residual', 'inputNorm'] } },
  { name: 'nn.int8InputNorm', args: () => [new RMSNorm(4), f([2, 4])], call: ([n, x]) => int8InputNorm(n as never, x as Tensor), optional: [0] },
  { name: 'nn.linearWithInputNorm', args: () => [linear(), f([2, 4]), new RMSNorm(4), {}], call: ([l, x, n, o]) => tidyCall(() => linearWithInputNorm(l as Linear, x as Tensor, n as never, o as never)), optional: [2, 3],
    options: { index: 3, keys: ['activation', 'residualLayerNorm', 'residual'] }, accepted: { '3:{}': 'no fusion: the plain forward' } },
  { name: 'nn.checkInputNormModule', args: () => [new RMSNorm(4), 'catalogue'], call: ([n, c]) => checkInputNormModule(n, c as string), optional: [0], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'nn.Module.loadStateDict', args: () => [stateDictOf(), {}], call: ([s, o]) => withModule(() => new TwoLinear(), (m) => m.loadStateDict(s as never, o as never)), optional: [1], options: { index: 1, keys: ['strict'] } },
  { name: 'nn.Module.replaceModule', args: () => ['first', linear()], call: ([n, l]) => withModule(() => new TwoLinear(), (m) => m.replaceModule(n as string, l as Module).dispose()) },
  { name: 'nn.Module.train', args: () => [true], call: ([t]) => withModule(() => new TwoLinear(), (m) => m.train(t as boolean)), optional: [0] },
  // the methods without arguments: the module they run on (`this`) is the position given each hostile value
  { name: 'nn.Module.stateDict', args: () => [new TwoLinear()], call: ([m]) => tidyCall(() => [...Module.prototype.stateDict.call(m as Module).values()].map((t) => t.clone())) },
  { name: 'nn.Module.parameters', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.parameters.call(m as Module) },
  { name: 'nn.Module.namedParameters', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.namedParameters.call(m as Module) },
  { name: 'nn.Module.trainableParameters', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.trainableParameters.call(m as Module) },
  { name: 'nn.Module.namedModules', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.namedModules.call(m as Module) },
  { name: 'nn.Module.numParameters', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.numParameters.call(m as Module) },
  { name: 'nn.Module.eval', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.eval.call(m as Module) },
  { name: 'nn.Module.dispose', args: () => [new TwoLinear()], call: ([m]) => Module.prototype.dispose.call(m as Module) },
  { name: 'nn.ModuleDict', args: () => [{ a: linear() }], call: ([d]) => withModule(() => new ModuleDict(d as never), () => undefined), accepted: { '0:{}': 'no modules: an empty ModuleDict (as torch.nn.ModuleDict())' } },
  { name: 'nn.ModuleDict.get', args: () => ['a'], call: ([k]) => withModule(() => new ModuleDict({ a: linear() }), (m) => m.get(k as never)) },
  { name: 'nn.ModuleDict.has', args: () => ['a'], call: ([k]) => withModule(() => new ModuleDict({ a: linear() }), (m) => m.has(k as never)), accepted: acceptedEverywhere('a key it does not hold: false (a predicate)', [0]) },
  { name: 'nn.ModuleList', args: () => [owned([linear()])], call: ([l]) => withModule(() => new ModuleList(l as never), () => undefined) },
  { name: 'nn.ModuleList.at', args: () => [0], call: ([i]) => withModule(() => new ModuleList([linear()]), (m) => m.at(i as number)) },
  { name: 'nn.StateDictError', args: () => ['catalogue', { missingKeys: ['a'], unexpectedKeys: [], mismatchedKeys: [] }, 'a hint'], call: ([c, p, h]) => built(new StateDictError(c as string, p as never, h as string)), optional: [2],
    accepted: acceptedEverywhere(REPORTS, [0, 1, 2]) },
  { name: 'nn.activationByName', args: () => ['gelu', 'catalogue'], call: ([n, c]) => activationByName(n as string, c as string), optional: [1], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'nn.checkLayerConfig', args: () => [{ embedDim: 4 }, 'catalogue', { widths: ['embedDim'] }], call: ([c, n, k]) => checkLayerConfig(c, n as string, k as never), accepted: { '1:"x"': CALLER } },
  { name: 'nn.checkWidth', args: () => [f([2, 4]), 'catalogue', 'x', 4, 'E'], call: ([x, c, a, w, n]) => checkWidth(x, c as string, a as string, w as number, n as string), accepted: { ...acceptedEverywhere(CALLER, [1]), ...acceptedEverywhere(ARGUMENT, [2]), ...acceptedEverywhere('a width name, only used in messages', [4]) } },
  { name: 'nn.gelu', args: () => [f([2, 4])], call: ([x]) => tidyCall(() => gelu(x as Tensor)), accepted: { '0:a rank-0 float tensor': ELEMENTWISE } },
  { name: 'nn.geluTanh', args: () => [f([2, 4])], call: ([x]) => tidyCall(() => geluTanh(x as Tensor)), accepted: { '0:a rank-0 float tensor': ELEMENTWISE } },
  { name: 'nn.initialValues', args: () => [[2, 3], { uniform: 0.1 }, 1, 'catalogue'], call: ([s, i, seed, c]) => tidyCall(() => initialValues(s as number[], i as never, seed as number, c as string)), optional: [2, 3],
    accepted: acceptedEverywhere(CALLER, [3]) },
  { name: 'nn.int8QkvProjection', args: () => [new Int8Linear(int8Weight()), new Int8Linear(int8Weight()), new Int8Linear(int8Weight()), f([2, 4])], call: ([q, k, v, x]) => tidyCall(() => int8QkvProjection(q as Int8Linear, k as Int8Linear, v as Int8Linear, x as Tensor)) },
  { name: 'nn.linearResidualLayerNorm', args: () => [linear(), f([2, 4]), f([2, 4]), new LayerNorm(4), new Dropout(0)], call: ([l, x, r, n, d]) => tidyCall(() => linearResidualLayerNorm(l as Linear, x as Tensor, r as Tensor, n as LayerNorm, d as Dropout)) },
  { name: 'nn.linearThenActivation', args: () => [linear(), f([2, 4]), gelu], call: ([l, x, a]) => tidyCall(() => linearThenActivation(l as Linear, x as Tensor, a as never)) },
  { name: 'nn.loadInt8LinearLayers', args: () => [new TwoLinear(), new Map([['first', int8Weight()]]), {}], call: ([m, w, o]) => loadInt8LinearLayers(m as Module, w as never, o as never), optional: [2], options: { index: 2, keys: ['kernel'] } },
  { name: 'nn.quantizeLinearLayers', args: () => [new TwoLinear(), {}], call: ([m, o]) => quantizeLinearLayers(m as Module, o as never), optional: [1], options: { index: 1, keys: ['skip', 'dispose', 'kernel'] } },
  { name: 'nn.skipInitialization', args: () => [() => 1], call: ([build]) => skipInitialization(build as () => number) },
];

const ATTENTION: readonly ValidCall[] = [
  { name: 'attention.TransformerEncoderLayer', args: () => [{ ...encoderConfig }], call: ([c]) => withModule(() => new TransformerEncoderLayer(c as never), () => undefined),
    options: { index: 0, keys: ['embedDim', 'numHeads', 'feedForwardDim', 'dropout', 'activation', 'layerNormEps', 'normFirst', 'seed'] }, accepted: { 'seed:-1': SEED } },
  { name: 'attention.TransformerEncoderLayer.forward', args: () => [f([2, 3, 8]), {}], call: ([x, o]) => withModule(() => new TransformerEncoderLayer(encoderConfig), (m) => m.forward(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['attentionMask', 'attentionBias', 'outputAttentions'] } },
  { name: 'attention.TransformerEncoderLayer.forwardTorch', args: () => [f([2, 3, 8]), {}], call: ([x, o]) => withModule(() => new TransformerEncoderLayer(encoderConfig), (m) => m.forwardTorch(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['mask', 'srcKeyPaddingMask', 'batchFirst', 'additiveBinaryMasks'] } },
  { name: 'attention.TransformerEncoder', args: () => [{ ...encoderConfig, numLayers: 1 }], call: ([c]) => withModule(() => new TransformerEncoder(c as never), () => undefined),
    options: { index: 0, keys: ['numLayers', 'finalNorm'] } },
  { name: 'attention.TransformerEncoder.forward', args: () => [f([2, 3, 8]), {}], call: ([x, o]) => withModule(() => new TransformerEncoder({ ...encoderConfig, numLayers: 1 }), (m) => m.forward(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['attentionMask', 'attentionBias', 'outputHiddenStates', 'outputAttentions'] } },
  { name: 'attention.TransformerEncoder.forwardTorch', args: () => [f([2, 3, 8]), {}], call: ([x, o]) => withModule(() => new TransformerEncoder({ ...encoderConfig, numLayers: 1 }), (m) => m.forwardTorch(x as Tensor, o as never)), optional: [1],
    options: { index: 1, keys: ['mask', 'srcKeyPaddingMask', 'batchFirst', 'additiveBinaryMasks'] } },
  { name: 'attention.applyRotaryInterleaved', args: () => [f([1, 2, 3, 4]), f([1, 3, 4]), f([1, 3, 4])], call: ([x, c, s]) => tidyCall(() => applyRotaryInterleaved(x as Tensor, c as Tensor, s as Tensor)) },
  { name: 'attention.attentionWeightShapes', args: () => [resolveAttentionConfig(mhaConfig)], call: ([c]) => attentionWeightShapes(c as never) },
  { name: 'attention.callWithTorchMasks', args: () => ['catalogue', f([2, 3, 8]), {}, 2, (x: Tensor) => x], call: ([c, s, o, h, fw]) => tidyCall(() => callWithTorchMasks(c as string, s as Tensor, o as never, h as number, fw as never)),
    options: { index: 2, keys: ['mask', 'srcKeyPaddingMask', 'batchFirst', 'additiveBinaryMasks'] }, accepted: acceptedEverywhere(CALLER, [0]) },
  { name: 'attention.checkAttentionBias', args: () => [f([3, 5]), { batch: 2, heads: 2, queryLength: 3, keyLength: 5 }, 'catalogue', 'bias'], call: ([x, t, c, a]) => tidyCall(() => checkAttentionBias(x, t as never, c as string, a as string)), optional: [3],
    accepted: { ...acceptedEverywhere(CALLER, [2]), ...acceptedEverywhere(ARGUMENT, [3]) } },
  { name: 'attention.fromTorchMasks', args: () => ['catalogue', { keyPaddingMask: b([2, 5]) }, { batch: 2, numHeads: 2, queryLength: 3, keyLength: 5 }], call: ([c, m, s]) => tidyCall(() => { const r = fromTorchMasks(c as string, m as never, s as never); return [r.mask, r.bias]; }),
    options: { index: 1, keys: ['keyPaddingMask', 'attnMask', 'additiveBinaryMasks'] }, accepted: acceptedEverywhere(CALLER, [0]) },
  { name: 'attention.fromTorchStateDict', args: () => [torchStateDict(), { numHeads: 2 }], call: ([s, o]) => tidyCall(() => { const r = fromTorchStateDict(s as never, o as never); r.temporaries.forEach((t) => t.dispose()); }),
    options: { index: 1, keys: ['numHeads', 'dropout', 'scorer', 'layout', 'prefix'] } },
  { name: 'attention.groupedQueryAttentionOutput', args: () => [f([2, 4, 4, 4]), f([2, 2, 5, 4]), f([2, 2, 5, 4]), {}], call: ([q, k, v, o]) => tidyCall(() => groupedQueryAttentionOutput(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [3],
    options: { index: 3, keys: ['mask', 'bias', 'dropout', 'training', 'seed'] }, accepted: { 'seed:-1': SEED } },
  { name: 'attention.cachedAttentionOutput', args: () => [f([2, 4, 1, 4]), { key: f([2, 2, 6, 4]), value: f([2, 2, 6, 4]), length: 5 }, {}], call: ([q, view, o]) => tidyCall(() => cachedAttentionOutput(q as Tensor, view as never, o as never)), optional: [2],
    options: { index: 2, keys: ['mask', 'bias', 'dropout', 'training', 'seed'] }, accepted: { 'seed:-1': SEED } },
  { name: 'attention.KvCache.append', args: () => [0, f([1, 2, 1, 4]), f([1, 2, 1, 4])], call: ([l, k, v]) => { const cache = new KvCache({ numLayers: 1, maxLength: 4 }); try { const s = cache.step([[1]]); s.positionIds.dispose(); s.attentionMask.dispose(); cache.append(l as number, k as Tensor, v as Tensor); } finally { cache.dispose(); } } },
  { name: 'attention.KvCache.attendStep', args: () => [0, { query: f([1, 1, 24]), key: f([1, 1, 24]), value: f([1, 1, 24]), heads: 4, queryAt: 0, keyAt: 16, valueAt: 20 }],
    call: ([l, st]) => { const cache = new KvCache({ numLayers: 1, maxLength: 4 }); try { for (const t of [1, 2]) { const s = cache.step([[1]]); s.positionIds.dispose(); s.attentionMask.dispose(); if (t === 1) tidy(() => { cache.append(0, zeros([1, 1, 1, 4]), zeros([1, 1, 1, 4])); }); } cache.attendStep(l as number, st as never)?.dispose(); } finally { cache.dispose(); } },
    options: { index: 1, keys: ['query', 'key', 'value', 'heads', 'kvHeads', 'headDim', 'queryAt', 'keyAt', 'valueAt', 'cos', 'sin', 'mask', 'scale'] }, accepted: { 'scale:-1': 'any finite scale multiplies the scores (a negative one too, as torch\'s scale=)' } },
  { name: 'attention.scaledDotProductAttentionOutput', args: () => [f([2, 2, 4, 4]), f([2, 2, 5, 4]), f([2, 2, 5, 4]), {}], call: ([q, k, v, o]) => tidyCall(() => scaledDotProductAttentionOutput(q as Tensor, k as Tensor, v as Tensor, o as never)), optional: [3],
    options: { index: 3, keys: ['mask', 'bias', 'scorer', 'dropout', 'training', 'seed'] }, accepted: { 'seed:-1': SEED } },
  { name: 'attention.multiHeadAttentionForward', args: () => ['catalogue', mhaWeights(), resolveAttentionConfig(mhaConfig), undefined, { query: f([2, 3, 8]), key: f([2, 3, 8]), value: f([2, 3, 8]) }, {}],
    call: ([c, w, cfg, s, i, o]) => tidyCall(() => { const r = multiHeadAttentionForward(c as string, w as never, cfg as never, s as never, i as never, o as never); return [r.output, r.attentionWeights]; }), optional: [3, 5],
    options: { index: 5, keys: ['attentionMask', 'attentionBias', 'returnWeights', 'training', 'seed'] }, accepted: { ...acceptedEverywhere(CALLER, [0]), 'seed:-1': SEED } },
  { name: 'attention.preciseCosSin', args: () => [f([2, 3])], call: ([a]) => tidyCall(() => preciseCosSin(a as Tensor)), accepted: { '0:a rank-0 float tensor': ELEMENTWISE } },
  { name: 'attention.resolveAttentionConfig', args: () => [{ ...mhaConfig }, 'catalogue'], call: ([c, n]) => resolveAttentionConfig(c as never, n as string), optional: [1], accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'attention.rotaryConfigFromHuggingFace', args: () => [{ hidden_size: 8, num_attention_heads: 2, rope_theta: 10000 }, {}], call: ([c, o]) => rotaryConfigFromHuggingFace(c as never, o as never), optional: [1], options: { index: 1, keys: ['layerType'] } },
  { name: 'attention.rotaryCosSin', args: () => [tensor([[0, 1, 2]], [1, 3], 'int32'), frequencies()], call: ([p, fr]) => tidyCall(() => { const r = rotaryCosSin(p as Tensor, fr as never); return [r.cos, r.sin]; }),
    accepted: { '0:an int32 tensor': 'int32 position ids [1, 3] are valid input' } },
  { name: 'attention.rotaryFrequencies', args: () => [{ headDim: 4 }, {}], call: ([c, o]) => rotaryFrequencies(c as never, o as never), optional: [1], options: { index: 1, keys: ['seqLen'] } },
  { name: 'attention.torchStyleCall', args: () => [new MultiHeadAttention(mhaConfig), f([2, 3, 8]), f([2, 5, 8]), f([2, 5, 8]), {}], call: ([m, q, k, v, o]) => tidyCall(() => { const r = torchStyleCall(m as never, q as Tensor, k as Tensor, v as Tensor, o as never); return [r.output, r.attentionWeights]; }), optional: [4],
    options: { index: 4, keys: ['keyPaddingMask', 'attnMask', 'additiveBinaryMasks', 'needWeights', 'averageAttnWeights'] }, accepted: { '3:undefined': 'value = key (as MultiHeadAttention.forward documents)' } },
];

/**
 * The masks, nn, scorers and attention exports the tensor-block table (positions-cases.ts) leaves out — checks
 * shared by the packages, Module methods, int8 layers, the PyTorch-style encoder and its helpers, the rotary
 * helpers —, every argument position and option key given each hostile value; Node (cpu) only.
 */
export const blocksPositionsCases: CatalogueCase[] = [...MASKS, ...SCORERS, ...NN, ...ATTENTION].flatMap(variants);

/** Exports no table calls, and why. */
export const positionsExempt: Record<string, string> = {
  'attention.maskedSoftmax': 'the same function as masks.maskedSoftmax (re-exported), which the tensor-block table calls',
  'nn.int8QkvFusable': 'a predicate that answers false for any value that is not three fusable Int8Linear layers',
  'nn.onF32Kernels': 'takes no arguments: it reports whether Linear runs on the float32 kernels',
};
