import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { ModelLoadError, modelFiles } from '@attnkit/hub';
import { readCrossEncoderFolder } from './read-cross-encoder-folder.js';
import { loadCrossEncoder } from './load-cross-encoder.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../../tooling/reference/fixtures/rerank/${name}/`, import.meta.url));
const BERT = fixture('cross-encoders/bert');
/** The bert CrossEncoder folder's files, some replaced (`undefined`: left out). */
function folderWith(changes: Record<string, string | undefined>): { files: Record<string, Uint8Array | string> } {
  const names = ['config.json', 'config_sentence_transformers.json', 'model.safetensors', 'modules.json', 'sentence_bert_config.json', 'tokenizer.json', 'tokenizer_config.json'];
  const files: Record<string, Uint8Array | string> = Object.fromEntries(names.map((name) => [name, readFileSync(`${BERT}${name}`)]));
  for (const [name, text] of Object.entries(changes)) {
    if (text === undefined) delete files[name];
    else files[name] = text;
  }
  return { files };
}
const read = (source: { files: Record<string, Uint8Array | string> } | string) => readCrossEncoderFolder(modelFiles(source, { caller: 'loadCrossEncoder' }));
const config = JSON.parse(readFileSync(`${BERT}config.json`, 'utf8')) as Record<string, unknown>;

beforeAll(() => useBackend('cpu'));

describe('readCrossEncoderFolder', () => {
  it('reads what CrossEncoder.save wrote, a 4/5-style folder and a plain classification folder', async () => {
    const saved = await read(BERT);
    expect([saved.plain, saved.activation, saved.maxSeqLength, saved.prompts.size]).toEqual([false, 'sigmoid', undefined, 0]); // max_length sits in tokenizer_config.json
    const prompts = await read(fixture('cross-encoders/roberta-prompts'));
    expect([prompts.activation, prompts.defaultPromptName, [...prompts.prompts]]).toEqual(['identity', 'query', [['query', 'query: '], ['short', 'q: ']]]);
    expect((await read(fixture('cross-encoders/electra-v4'))).activation).toBe('sigmoid'); // config.json's sentence_transformers.activation_fn
    const plain = await read(fixture('classifiers/distilbert'));
    expect([plain.plain, plain.activation]).toEqual([true, undefined]); // identity for 2 labels, decided by the CrossEncoder
    const older = await read(folderWith({ 'config_sentence_transformers.json': undefined, 'config.json': JSON.stringify({ ...config, sbert_ce_default_activation_function: 'torch.nn.Tanh' }) }));
    expect(older.activation).toBe('tanh');
  });

  it('ignores an activation that is not PyTorch\'s (as sentence-transformers without trust_remote_code), with a notice', async () => {
    const custom = folderWith({ 'config_sentence_transformers.json': JSON.stringify({ activation_fn: 'my_package.Scaled' }) });
    expect((await read(custom)).ignoredActivation).toBe('my_package.Scaled');
    const notices: string[] = [];
    const model = await loadCrossEncoder(custom, { onNotice: (m) => notices.push(m) });
    expect(model.activation).toBe('sigmoid');
    expect(notices.join('\n')).toMatch(/names the activation "my_package\.Scaled", which is not PyTorch's; sentence-transformers uses its default without trust_remote_code, and so does attnkit\./);
    model.dispose();
  });

  it.each([
    ['a Pooling module', { 'modules.json': JSON.stringify([{ idx: 0, name: '0', path: '', type: 'sentence_transformers.base.modules.transformer.Transformer' }, { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.base.modules.Pooling' }]) }, /modules\.json in the given files lists Transformer, Pooling; a CrossEncoder folder attnkit reads has one Transformer module \(sequence classification\)\./],
    ['a PyTorch activation attnkit does not have', { 'config_sentence_transformers.json': JSON.stringify({ activation_fn: 'torch.nn.modules.activation.Hardswish' }) }, /config_sentence_transformers\.json in the given files names the activation "torch\.nn\.modules\.activation\.Hardswish"; attnkit's CrossEncoder has torch\.nn's Identity, Sigmoid, Tanh, ReLU and Softmax\./],
    ['another transformer task', { 'sentence_bert_config.json': JSON.stringify({ transformer_task: 'text-generation' }) }, /has transformer_task "text-generation"; attnkit's CrossEncoder scores pairs with a sequence-classification model\./],
    ['a default prompt that is not a prompt', { 'config_sentence_transformers.json': JSON.stringify({ prompts: {}, default_prompt_name: 'query' }) }, /has default_prompt_name "query", which is not one of its prompts \(none\)\./],
    ['a max_seq_length of 0', { 'sentence_bert_config.json': JSON.stringify({ max_seq_length: 0 }) }, /has max_seq_length 0; expected a positive integer\./],
  ])('refuses %s with a ModelLoadError naming the file', async (_, changes, message) => {
    await expect(read(folderWith(changes))).rejects.toThrow(ModelLoadError);
    await expect(read(folderWith(changes))).rejects.toThrow(message);
  });

  it('takes max_seq_length from sentence_bert_config.json before the tokenizer', async () => {
    const model = await loadCrossEncoder(folderWith({ 'sentence_bert_config.json': JSON.stringify({ max_seq_length: 12, do_lower_case: false }) }));
    expect(model.maxLength).toBe(12);
    model.dispose();
  });
});
