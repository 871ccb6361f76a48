import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSentenceEncoder, type SentenceEncodeFloatOptions } from '@attnkit/sentence';
import { Tokenizer } from '@attnkit/tokenizers';
import { rejects, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const L = 'ModelLoadError';
const folder = repoPath('tooling/reference/fixtures/sentence-decoders/qwen3-lasttoken/'); // Qwen3, lasttoken, left padding
const FILES = ['modules.json', 'config_sentence_transformers.json', 'sentence_bert_config.json', 'config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', '1_Pooling/config.json', '2_Normalize/config.json'];
const json = (file: string) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>;
const withFiles = (changes: Record<string, unknown>) => loadSentenceEncoder({ files: Object.fromEntries(FILES.map((f) => [f, f in changes ? JSON.stringify(changes[f]) : readFileSync(join(folder, f))])) }).then((m) => m.dispose());
async function encode(texts: unknown, options: SentenceEncodeFloatOptions): Promise<unknown> {
  const model = await loadSentenceEncoder(folder);
  try { return (await model.encode(texts as string[], options)).shape; } finally { model.dispose(); }
}

/** Decoder sentence-transformers folders (Qwen3-Embedding layout): prompts, padding side, the Transformer's model_type. */
export const decoderEmbeddingCases: CatalogueCase[] = [
  rejects('sentence', 'a decoder folder asked for a prompt it does not have', E, "SentenceEncoder.encode: 'promptName' must be one of the folder's prompts ('document', 'query'); received string 'passage'.", () => encode(['a'], { promptName: 'passage' })),
  rejects('sentence', 'a decoder folder given a prompt that is not text', E, "SentenceEncoder.encode: 'prompt' must be a string; received number 1.", () => encode(['a'], { prompt: 1 as never })),
  rejects('sentence', 'a Transformer of a model_type attnkit does not build', L, /^loadSentenceEncoder: config\.json in the given files has model_type "gpt_neox"; a Transformer module attnkit loads is an encoder \(bert, distilbert, roberta, xlm-roberta, electra, mpnet, roformer, modernbert\) or a decoder \(gpt2, llama, mistral, qwen2, qwen3\)\./, () => withFiles({ 'config.json': { ...json('config.json'), model_type: 'gpt_neox' } })),
  rejects('sentence', 'a decoder folder whose Pooling is wider than the model', E, "SentenceEncoder: 'pooling' must be embedding_dimension = the encoder's hidden size 32; received 64.", () => withFiles({ '1_Pooling/config.json': { embedding_dimension: 64, pooling_mode: 'lasttoken', include_prompt: true } })),
  rejects('sentence', 'tokenizer_config.json with padding_side "middle"', E, "Tokenizer: 'tokenizerConfig.padding_side' must be 'left' or 'right' (as transformers accepts); received string 'middle'.", () => new Tokenizer(json('tokenizer.json'), { padding_side: 'middle' })),
  rejects('sentence', 'Tokenizer.encode with paddingSide "top"', E, "Tokenizer.encode: 'paddingSide' must be 'left' or 'right'; received string 'top'.", () => new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json')).encode(['a'], { paddingSide: 'top' as never })),
];
