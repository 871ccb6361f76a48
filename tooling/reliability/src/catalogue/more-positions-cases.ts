import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBertForMaskedLM, loadCausalLM, type CausalLM } from '@attnkit/models';
import { checkChatMessages, loadTokenizer } from '@attnkit/tokenizers';
import { int8FolderFiles, readTrainingCheckpoint, saveInt8Folder } from '@attnkit/train';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const LLAMA = repoPath('tooling/reference/fixtures/decoders/llama/'); // byte-fallback tokenizer, vocab 320
const QWEN2 = repoPath('tooling/reference/fixtures/decoders/qwen2/');
const MLM = repoPath('tooling/reference/fixtures/attnkit-saved-mlm/');
const BERT = repoPath('tooling/reference/fixtures/families/bert/');
const LOAD_KEYS = ['onProgress', 'onNotice', 'signal', 'checkFinite', 'backend', 'fetch', 'hub', 'quantize'];
const NO_HUB = 'no Hub options: the HF_* variables and defaults';
const SEED = 'any integer seed is a seed (as torch.manual_seed takes negative ones)';
const scratch = mkdtempSync(join(tmpdir(), 'attnkit-more-positions-'));
let folders = 0;
/** A folder path no case has written to. */
const freshFolder = () => join(scratch, `out-${(folders += 1)}`);
const tokenizer = loadTokenizer(LLAMA); // no tensors: shared

const qwenTokenizer = loadTokenizer(QWEN2);
/** Every piece `stream` yields (its tokenizer added to plain options that do not name one), the model loaded for the case and disposed after it. */
async function streamed(input: unknown, given: unknown): Promise<string> {
  const plain = given !== null && typeof given === 'object' && !Array.isArray(given) && !('tokenizer' in given) && typeof (given as { dispose?: unknown }).dispose !== 'function';
  const options = plain ? { ...given, tokenizer: await qwenTokenizer } : given;
  const model: CausalLM = await loadCausalLM(QWEN2);
  try {
    let text = '';
    for await (const piece of model.stream(input as never, options as never)) text += piece.text;
    return text;
  } finally {
    model.dispose();
  }
}

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'models.CausalLM.stream', args: () => [[1, 2], { maxNewTokens: 2, doSample: true, seed: 1 }], call: ([i, o]) => streamed(i, o),
    options: { index: 1, keys: ['maxNewTokens', 'maxLength', 'doSample', 'temperature', 'topK', 'topP', 'minP', 'repetitionPenalty', 'seed', 'stop', 'eosTokenId', 'padTokenId', 'tokenizer', 'onToken', 'signal'] },
    accepted: { 'eosTokenId:null': 'null: no end-of-sequence token, the stream runs to maxNewTokens (documented)', '0:"x"': 'a text prompt, encoded by the tokenizer', 'stop:"x"': 'a stop string: generation ends where the text has it' } },
  { name: 'models.loadBertForMaskedLM', args: () => [MLM, {}], call: ([s, o]) => loadBertForMaskedLM(s as never, o as never).then((m) => m.dispose()), optional: [1],
    options: { index: 1, keys: [...LOAD_KEYS, 'seed'] }, accepted: { 'hub:{}': NO_HUB, 'seed:-1': SEED } },
  { name: 'tokenizers.Tokenizer.isByteToken', args: () => [300], call: ([id]) => tokenizer.then((t) => t.isByteToken(id as number)) },
  { name: 'tokenizers.Tokenizer.isSpecialToken', args: () => ['<s>'], call: ([token]) => tokenizer.then((t) => t.isSpecialToken(token as string)), accepted: { '0:"x"': 'a token string: "x" is no special token (false)' } },
  { name: 'tokenizers.checkChatMessages', args: () => [[{ role: 'user', content: 'hi' }], 'catalogue'], call: ([m, c]) => checkChatMessages(m, c as string),
    accepted: { '1:undefined': 'the caller only names the function in messages', '1:null': 'the caller only names the function in messages', '1:NaN': 'the caller only names the function in messages', '1:{}': 'the caller only names the function in messages', '1:"x"': 'a caller name', '1:a sparse array [1, , 1]': 'the caller only names the function in messages', '1:a disposed tensor': 'the caller only names the function in messages', '1:an int32 tensor': 'the caller only names the function in messages', '1:a rank-0 float tensor': 'the caller only names the function in messages' } },
  { name: 'train.saveInt8Folder', args: () => [BERT, freshFolder(), {}], call: ([s, f, o]) => saveInt8Folder(s as never, f as string, o as never), optional: [2], options: { index: 2, keys: ['overwrite', 'onNotice'] } },
  { name: 'train.int8FolderFiles', args: () => [BERT, {}], call: ([s, o]) => int8FolderFiles(s as never, o as never), optional: [1], options: { index: 1, keys: ['onNotice'] } },
  { name: 'train.readTrainingCheckpoint', args: () => [join(scratch, 'no-checkpoint-here'), 'catalogue'], call: ([f, c]) => readTrainingCheckpoint(f as string, c as string) },
];

/** The remaining public calls (streaming, the masked-LM loader, tokenizer predicates, chat messages, int8 folders, checkpoint reading), every argument position and option key; Node only. */
export const morePositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants).filter((c) => !(c.input.startsWith('train.saveInt8Folder argument 2 = "x"')));
