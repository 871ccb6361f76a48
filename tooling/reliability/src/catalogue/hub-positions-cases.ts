import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteCachedModel, downloadModel, modelFiles, readSafetensors, resolveHubOptions, scanHubCache, writeSafetensors } from '@attnkit/hub';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const BERT = repoPath('tooling/reference/fixtures/families/bert/');
const HUB_CACHE = repoPath('tooling/reference/fixtures/hub-cache/'); // acme/st-bert, read only
/** deleteCachedModel deletes: it works on a copy of the cache fixture (never the network: offline throughout). */
const scratch = mkdtempSync(join(tmpdir(), 'attnkit-hub-positions-'));
let copied: string | undefined;
const cacheCopy = () => (copied ??= (cpSync(HUB_CACHE, join(scratch, 'cache'), { recursive: true }), join(scratch, 'cache')));
const offline = () => ({ offline: true, cacheDir: HUB_CACHE });
const bytes = () => writeSafetensors({ w: { shape: [2], values: new Float32Array([1, 2]) } });
const NO_HUB = 'no Hub options: the HF_* variables and defaults';
const RELATIVE = 'a relative folder path: a reader, whose reads of files it lacks give undefined';
const MISSING = 'a file name: undefined when the folder has no such file (documented)';
const CALLER = 'a caller name for messages';

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'hub.modelFiles', args: () => [BERT, {}], call: ([s, o]) => modelFiles(s as never, o as never).read('config.json', { required: true }), optional: [1],
    options: { index: 1, keys: ['onProgress', 'signal', 'caller', 'fetch', 'hub'] }, accepted: { '0:"x"': RELATIVE, 'caller:"x"': CALLER, 'hub:{}': NO_HUB } },
  { name: 'hub.ModelFiles.read', args: () => ['config.json', { required: true }], call: ([n, o]) => modelFiles(BERT).read(n as never, o as never), optional: [1], options: { index: 1, keys: ['required'] }, accepted: { '0:"x"': MISSING } },
  { name: 'hub.ModelFiles.json', args: () => ['config.json', { required: true }], call: ([n, o]) => modelFiles(BERT).json(n as never, o as never), optional: [1], options: { index: 1, keys: ['required'] }, accepted: { '0:"x"': MISSING } },
  { name: 'hub.readSafetensors', args: () => [bytes(), {}], call: ([b, o]) => readSafetensors(b as never, o as never), optional: [1], options: { index: 1, keys: ['maxHeaderBytes', 'keepInt8'] } },
  { name: 'hub.writeSafetensors', args: () => [{ w: { shape: [2], values: new Float32Array([1, 2]) } }, { format: 'pt' }], call: ([t, m]) => writeSafetensors(t as never, m as never), optional: [1],
    accepted: { '0:{}': 'no tensors: an empty, valid file', '1:{}': 'no metadata' } },
  { name: 'hub.resolveHubOptions', args: () => [offline(), 'caller'], call: ([h, c]) => resolveHubOptions(h as never, c as never), optional: [0, 1],
    options: { index: 0, keys: ['cacheDir', 'offline', 'token', 'endpoint'] }, accepted: { '0:{}': NO_HUB, '1:"x"': CALLER, 'cacheDir:"x"': 'a relative folder path is a cache folder', 'token:"x"': 'a non-empty string is a token (the Hub judges it)' } },
  { name: 'hub.scanHubCache', args: () => [{ hub: offline() }], call: ([o]) => scanHubCache(o as never), optional: [0], options: { index: 0, keys: ['hub'] }, accepted: { 'hub:{}': NO_HUB } },
  { name: 'hub.downloadModel', args: () => ['acme/st-bert', { hub: offline() }], call: ([s, o]) => downloadModel(s as never, o as never),
    options: { index: 1, keys: ['hub', 'include', 'onProgress', 'signal', 'fetch'] } },
  { name: 'hub.deleteCachedModel', args: () => ['acme/st-bert', { hub: { offline: true, cacheDir: cacheCopy() } }], call: ([i, o]) => deleteCachedModel(i as never, o as never), optional: [1],
    options: { index: 1, keys: ['revision', 'hub'] } },
];

/** The hub package's calls (files, safetensors, cache), every argument position and option key given each hostile value; offline, Node only. */
export const hubPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
