import { describe, expect, it } from 'vitest';
import { ModelLoadError } from '@attnkit/hub';
import { readSentenceFolder } from './read-sentence-folder.js';

const files = (extra: Record<string, unknown>) => ({
  files: Object.fromEntries(Object.entries({
    'modules.json': [{ idx: 0, name: '0', path: '', type: 'sentence_transformers.base.modules.transformer.Transformer' }, { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.sentence_transformer.modules.pooling.Pooling' }],
    '1_Pooling/config.json': { embedding_dimension: 8, pooling_mode: 'cls' },
    ...extra,
  }).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])),
});
async function failure(extra: Record<string, unknown>): Promise<string> {
  const error = await readSentenceFolder(files(extra)).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ModelLoadError);
  return (error as Error).message;
}

describe('readSentenceFolder', () => {
  it('reads modules, pooling, prompts, similarity and the older sentence_bert_config keys', async () => {
    const folder = await readSentenceFolder(files({
      'modules.json': [{ path: '', type: 'sentence_transformers.models.Transformer' }, { path: '1_Pooling', type: 'sentence_transformers.models.Pooling' }, { path: '2_Normalize', type: 'sentence_transformers.models.Normalize' }],
      'sentence_bert_config.json': { max_seq_length: 128, do_lower_case: true },
      'config_sentence_transformers.json': { prompts: { query: 'query: ', document: '' }, default_prompt_name: 'query', similarity_fn_name: 'dot' },
    }));
    expect(folder).toMatchObject({ plain: false, maxSeqLength: 128, doLowerCase: true, pooling: { modes: ['cls'] }, modules: [{ type: 'Normalize', path: '2_Normalize' }], defaultPromptName: 'query', similarityFnName: 'dot' });
    expect([...folder.prompts]).toEqual([['query', 'query: '], ['document', '']]);
  });

  it('reads a plain Hugging Face folder (no modules.json) with the defaults', async () => {
    expect(await readSentenceFolder({ files: { 'config.json': '{}' } })).toMatchObject({ plain: true, pooling: undefined, modules: [], similarityFnName: 'cosine', maxSeqLength: undefined });
  });

  it('refuses a folder with neither modules.json nor config.json (a wrong path) instead of reading it as a plain folder', async () => {
    for (const source of [{ files: {} }, { files: { 'tokenizer.json': '{}' } }, '/no/such/attnkit-folder']) {
      const error = await readSentenceFolder(source as never).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ModelLoadError);
      expect((error as Error).message).toMatch(/^loadSentenceEncoder: config\.json is missing in .*; a Hugging Face model folder has config\.json and model\.safetensors, a sentence-transformers folder also modules\.json\.$/);
    }
  });

  it('treats "__proto__" prompt names as data', async () => {
    const folder = await readSentenceFolder(files({ 'config_sentence_transformers.json': '{"prompts": {"__proto__": "x: "}, "default_prompt_name": "__proto__"}' }));
    expect(folder.prompts.get('__proto__')).toBe('x: ');
    expect(({} as Record<string, unknown>)['x: ']).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a module path that leaves the folder', { 'modules.json': [{ path: '', type: 'x.Transformer' }, { path: '../outside', type: 'x.Pooling' }] }, /module path "\.\.\/outside" must be a relative folder inside the model folder/],
    ['an absolute module path', { 'modules.json': [{ path: '/etc', type: 'x.Transformer' }] }, /module path "\/etc" must be a relative folder/],
    ['a module attnkit does not have', { 'modules.json': [{ path: '', type: 'x.Transformer' }, { path: '1', type: 'sentence_transformers.models.StaticEmbedding' }] }, /has module 1 of type "sentence_transformers\.models\.StaticEmbedding"; attnkit reads Transformer, Pooling, Dense, Normalize\./],
    ['no Transformer first', { 'modules.json': [{ path: '1_Pooling', type: 'x.Pooling' }] }, /has Pooling first; attnkit reads a Transformer first/],
    ['a missing Pooling config', { '1_Pooling/config.json': undefined }, /1_Pooling\/config\.json in the given files is missing/],
    ['a Pooling config with an unknown mode', { '1_Pooling/config.json': { embedding_dimension: 8, pooling_mode: 'median' } }, /is not a Pooling config: .*'pooling_mode' must be one of/],
    ['modules.json that is not JSON', { 'modules.json': '[{' }, /modules\.json in the given files is not valid JSON/],
    ['a default prompt that is not a prompt', { 'config_sentence_transformers.json': { prompts: { query: 'q: ' }, default_prompt_name: 'passage' } }, /default_prompt_name "passage", which is not one of its prompts \(query\)/],
    ['a prompt that is not text', { 'config_sentence_transformers.json': { prompts: { query: 3 } } }, /prompt "query" that is not a string/],
    ['an unknown similarity', { 'config_sentence_transformers.json': { similarity_fn_name: 'jaccard' } }, /similarity_fn_name "jaccard"; attnkit has cosine, dot, euclidean, manhattan/],
    ['a bad max_seq_length', { 'sentence_bert_config.json': { max_seq_length: -1 } }, /max_seq_length -1; expected a positive integer/],
  ])('rejects %s with a ModelLoadError naming the file', async (_, extra, message) => {
    expect(await failure(extra)).toMatch(message);
  });
});
