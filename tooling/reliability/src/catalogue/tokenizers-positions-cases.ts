import { readFileSync } from 'node:fs';
import { Tokenizer, checkTokenizerJson, loadTokenizer, renderChatTemplate, tokenizerJsonFromVocab } from '@attnkit/tokenizers';
import type { CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';
import { variants, type ValidCall } from './positions-cases.js';

const BERT = repoPath('tooling/reference/fixtures/families/bert/'); // WordPiece, lowercase
const CHAT = repoPath('tooling/reference/fixtures/chat-templates/smollm2/'); // a ChatML template
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
/** Tokenizers hold no tensors: each is built once, on first use, and shared by the cases. */
let bert: Tokenizer | undefined;
let chat: Tokenizer | undefined;
const bertTokenizer = () => (bert ??= new Tokenizer(json(`${BERT}tokenizer.json`), json(`${BERT}tokenizer_config.json`)));
const chatTokenizer = () => (chat ??= new Tokenizer(json(`${CHAT}tokenizer.json`), json(`${CHAT}tokenizer_config.json`)));
const messages = () => [{ role: 'user', content: 'hi' }];
const NULL_OPTION = 'a null option is left out: its default (documented, as None in transformers)';
const NO_VARIABLES = 'an empty record: no extra template variables';
const TEXT = 'a string is text to tokenize ("x" is a text)';

const VALID_CALLS: readonly ValidCall[] = [
  { name: 'tokenizers.Tokenizer', args: () => [json(`${BERT}tokenizer.json`), json(`${BERT}tokenizer_config.json`)], call: ([j, c]) => new Tokenizer(j as never, c as never), optional: [1], accepted: { '1:{}': 'an empty tokenizer_config.json: the defaults' } },
  { name: 'tokenizers.Tokenizer.encode', args: () => [['hello world', 'a'], { padding: 'longest' }], call: ([t, o]) => bertTokenizer().encode(t as never, o as never), optional: [1],
    options: { index: 1, keys: ['padding', 'truncation', 'maxLength', 'paddingSide'] },
    accepted: { 'padding:null': NULL_OPTION, 'truncation:null': NULL_OPTION, 'maxLength:null': NULL_OPTION, 'paddingSide:null': NULL_OPTION } },
  { name: 'tokenizers.Tokenizer.decode', args: () => [[101, 7592, 102]], call: ([ids]) => bertTokenizer().decode(ids as never) },
  { name: 'tokenizers.Tokenizer.tokenize', args: () => ['hello world'], call: ([t]) => bertTokenizer().tokenize(t as never), accepted: { '0:"x"': TEXT } },
  { name: 'tokenizers.Tokenizer.tokenToId', args: () => ['hello'], call: ([t]) => bertTokenizer().tokenToId(t as never), accepted: { '0:"x"': 'a token string: its id, or undefined when the vocabulary has none' } },
  { name: 'tokenizers.Tokenizer.idToToken', args: () => [101], call: ([id]) => bertTokenizer().idToToken(id as never) },
  { name: 'tokenizers.Tokenizer.applyChatTemplate', args: () => [messages(), { addGenerationPrompt: true }], call: ([m, o]) => chatTokenizer().applyChatTemplate(m as never, o as never), optional: [1],
    options: { index: 1, keys: ['templateName', 'chatTemplate', 'tokenize', 'addGenerationPrompt', 'continueFinalMessage', 'tools', 'documents', 'variables'] },
    accepted: { 'chatTemplate:"x"': 'a template string: "x" renders as the text x', 'variables:{}': NO_VARIABLES } },
  { name: 'tokenizers.loadTokenizer', args: () => [BERT, {}], call: ([s, o]) => loadTokenizer(s as never, o as never), optional: [1],
    options: { index: 1, keys: ['lowercase', 'signal', 'fetch', 'onProgress', 'hub'] }, accepted: { 'hub:{}': 'no Hub options: the HF_* variables and defaults' } },
  { name: 'tokenizers.tokenizerJsonFromVocab', args: () => ['[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n', {}], call: ([v, o]) => tokenizerJsonFromVocab(v as never, o as never), optional: [1],
    options: { index: 1, keys: ['lowercase', 'stripAccents', 'handleChineseChars'] }, accepted: { 'stripAccents:null': 'null: accents stripped when lowercasing (documented, as BertNormalizer)' } },
  { name: 'tokenizers.renderChatTemplate', args: () => ['{% for m in messages %}{{ m.content }}{% endfor %}', messages(), {}], call: ([t, m, o]) => renderChatTemplate(t as never, m as never, o as never), optional: [2],
    options: { index: 2, keys: ['addGenerationPrompt', 'continueFinalMessage', 'tools', 'documents', 'variables'] }, accepted: { '0:"x"': 'a template string: "x" renders as the text x', 'variables:{}': NO_VARIABLES } },
  { name: 'tokenizers.checkTokenizerJson', args: () => [json(`${BERT}tokenizer.json`), 'caller'], call: ([j, c]) => checkTokenizerJson(j as never, c as never), accepted: { '1:"x"': 'a caller name for messages' } },
];

/** The tokenizer package's calls, every argument position and option key given each hostile value; Node only (it reads fixtures). */
export const tokenizersPositionsCases: CatalogueCase[] = VALID_CALLS.flatMap(variants);
