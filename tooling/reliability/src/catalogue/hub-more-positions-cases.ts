import {
  ModelLoadError, SafetensorsError, cachedFetch, checkModelFiles, checkModelSource, decodeHalf, describeSource, hubSourceOf, int8QuantizationConfig, int8WeightTensors, modelFiles,
  nonFiniteTensors, parseHubId, parseInt8QuantizationConfig, readCheckpoint, readInt8WeightTensors, repoFolderName,
} from '@attnkit/hub';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { acceptedEverywhere, built, REPORTS } from './kernels-positions-cases.js';
import { variants, type ValidCall } from './positions-cases.js';

const BERT = repoPath('tooling/reference/fixtures/families/bert/');
const CALLER = 'a caller name, only used in messages';
const int8Weight = () => ({ values: new Int8Array([1, -1, 2, -2]), scales: new Float32Array([0.5, 0.25]), inFeatures: 2, outFeatures: 2 });
const storedInt8 = () => new Map<string, unknown>([
  ['dense.weight', { dtype: 'I8', shape: [2, 2], values: new Int8Array([1, -1, 2, -2]) }],
  ['dense.weight_scale', { dtype: 'F32', shape: [2, 1], values: new Float32Array([0.5, 0.25]) }],
]);

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'hub.ModelLoadError', args: () => ['config.json', 'config.json is missing', undefined, 'catalogue'], call: ([f, m, c, n]) => built(new ModelLoadError(f as string, m as string, c, n as string)), optional: [2, 3],
    accepted: { ...acceptedEverywhere(REPORTS, [0, 1, 3]), ...acceptedEverywhere('any value is a cause (Error.cause)', [2]) } },
  { name: 'hub.SafetensorsError', args: () => ['header', 'a header that is no JSON'], call: ([r, m]) => built(new SafetensorsError(r as never, m as string)),
    accepted: acceptedEverywhere(REPORTS, [0, 1]) },
  { name: 'hub.cachedFetch', args: () => ['attnkit-catalogue'], call: ([n]) => typeof cachedFetch(n as string), optional: [0], accepted: { '0:"x"': 'a Cache API cache name' } },
  { name: 'hub.checkModelFiles', args: () => [modelFiles(BERT), 'catalogue'], call: ([f, c]) => checkModelFiles(f, c as string), accepted: acceptedEverywhere(CALLER, [1]) },
  { name: 'hub.checkModelSource', args: () => [BERT, 'catalogue'], call: ([s, c]) => checkModelSource(s, c as string), accepted: { ...acceptedEverywhere(CALLER, [1]), '0:"x"': 'a relative folder path is a model source' } },
  { name: 'hub.decodeHalf', args: () => [new Uint8Array([0, 60, 0, 64]), 'F16'], call: ([b, d]) => decodeHalf(b as Uint8Array, d as never) },
  { name: 'hub.describeSource', args: () => [BERT], call: ([s]) => describeSource(s as never), accepted: acceptedEverywhere('a description for messages: any value is described, never thrown on', [0]) },
  { name: 'hub.hubSourceOf', args: () => ['acme/st-bert'], call: ([s]) => hubSourceOf(s as never), accepted: acceptedEverywhere('a value that is no Hub id or { id }: undefined (documented: the loaders read it as a folder, URL or file set, and check it there)', [0]) },
  { name: 'hub.int8QuantizationConfig', args: () => [['lm_head']], call: ([i]) => int8QuantizationConfig(i as string[]), optional: [0] },
  { name: 'hub.int8WeightTensors', args: () => ['dense.weight', int8Weight()], call: ([n, w]) => int8WeightTensors(n as string, w as never) },
  { name: 'hub.nonFiniteTensors', args: () => [new Map([['w', { values: new Float32Array([1, 2]) }]])], call: ([t]) => nonFiniteTensors(t as never) },
  { name: 'hub.parseHubId', args: () => ['acme/st-bert@main'], call: ([t]) => parseHubId(t as string), accepted: { '0:"x"': 'a text that is no Hub id: undefined' } },
  { name: 'hub.parseInt8QuantizationConfig', args: () => [int8QuantizationConfig()], call: ([v]) => parseInt8QuantizationConfig(v),
    accepted: { '0:undefined': 'no quantization_config: false (documented)', '0:null': 'quantization_config: null is none: false (documented, as Python None)', '0:{}': 'a quantization_config of another method: false (documented: not int8)' } },
  { name: 'hub.readCheckpoint', args: () => [modelFiles(BERT)], call: ([f]) => readCheckpoint(f as never) },
  { name: 'hub.readInt8WeightTensors', args: () => [storedInt8()], call: ([t]) => readInt8WeightTensors(t as never) },
  { name: 'hub.repoFolderName', args: () => ['acme/st-bert'], call: ([i]) => repoFolderName(i as string), accepted: { '0:"x"': "a Hub id without an owner (as 'gpt2')" } },
];

/** The hub exports the first hub table leaves out (errors, ids and sources, int8 tensors, half floats, the fetch cache), every argument position; offline, Node only. */
export const hubMorePositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
