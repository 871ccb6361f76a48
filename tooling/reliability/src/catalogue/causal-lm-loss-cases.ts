import { tensor2d, tensor3d, tidy, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { loadCausalLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { causalLanguageModelLoss, saveCausalLMFolder, trainCausalLanguageModel } from '@attnkit/train';
import { rejects, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const E = 'InvalidArgumentError';
const C = 'causalLanguageModelLoss';
/** Every case runs in a tidy: the tensors it makes are disposed when the call throws. */
const logits = () => tensor3d([[[0, 1], [1, 0], [2, -2]]]); // [B 1, T 3, V 2]
const NO_LABEL = `${C}: 'labels' must be at least one label after the first position that is not -100 (nor padding): the loss is a mean over them; received 1 × 2 shifted labels, none counted. transformers returns NaN for such a batch; leave it out, or label at least one token.`;
async function train(texts: unknown, options: Record<string, unknown>): Promise<unknown> {
  const folder = repoPath('tooling/reference/fixtures/decoders/qwen3/');
  const [model, tokenizer] = [await loadCausalLM(folder), await loadTokenizer(folder)];
  try { return (await trainCausalLanguageModel(model, tokenizer, texts as string[], options)).steps; } finally { model.dispose(); }
}

async function saveOther(): Promise<unknown> {
  const model = await loadCausalLM(repoPath('tooling/reference/fixtures/decoders/qwen3/'));
  try { return await saveCausalLMFolder(model, '/tmp/attnkit-never-written', { source: repoPath('tooling/reference/fixtures/decoders/gpt2/') }); } finally { model.dispose(); }
}

/** The causal-LM loss and trainer of @attnkit/train: labels, masks and what transformers would turn into NaN. */
export const causalLmLossCases: CatalogueCase[] = [
  rejects('decoders', 'causal-LM labels of another shape', E, `${C}: 'labels' must be [B, T] = [1, 3], the logits' first two dimensions; received 1 rows of 2 values.`, () => tidy(() => causalLanguageModelLoss(logits(), [[0, 1]]))),
  rejects('decoders', 'causal-LM labels as a float tensor', E, `${C}: 'labels' must be int32 ids [B, T] = [1, 3]; received a float32 tensor [1, 3]. Labels are token ids: make them with tf.tensor2d(ids, undefined, 'int32') or pass nested arrays.`, () => tidy(() => causalLanguageModelLoss(logits(), tensor2d([[0, 1, 0]])))),
  rejects('decoders', 'a causal-LM label past the vocabulary', E, `${C}: 'labels[0][2]' must be a token id in [0, V = 2) or -100 (not trained on); received number 2.`, () => tidy(() => causalLanguageModelLoss(logits(), [[0, 1, 2]]))),
  rejects('decoders', 'causal-LM labels all -100 (transformers: NaN)', E, NO_LABEL, () => tidy(() => causalLanguageModelLoss(logits(), [[0, -100, -100]]))),
  rejects('decoders', 'causal-LM labels all padding by the attention mask', E, NO_LABEL, () => tidy(() => causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[1, 0, 0]] }))),
  rejects('decoders', 'causal-LM logits of rank 2', E, `${C}: 'logits' must be a float32 tensor [B, T, V] (a causal LM's forward(...).logits); received float32 tensor of rank 2 [3, 2].`, () => tidy(() => causalLanguageModelLoss(zeros([3, 2]) as Tensor, [[0, 1, 0]]))),
  rejects('decoders', 'a causal-LM attention mask of 2s', E, `${C}: 'attentionMask[0][1]' must be 0 or 1; received number 2.`, () => tidy(() => causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[1, 2, 1]] }))),
  rejects('decoders', 'trainCausalLanguageModel resuming from a missing folder', 'CheckpointError', 'trainCausalLanguageModel: the resume folder /nonexistent/attnkit-run does not exist.', () => train(['the cat sat'], { resume: '/nonexistent/attnkit-run' })),
  rejects('decoders', 'trainCausalLanguageModel checkpointing without a source', 'ModelLoadError', "trainCausalLanguageModel: the model source must be a folder path or URL (a non-empty string), a Hugging Face id ('org/name' or { id, revision? }), a URL object, or { files: { 'config.json': ..., ... } }; received undefined.", () => train(['the cat sat'], { checkpoint: { folder: '/tmp/attnkit-never-written' } })),
  rejects('decoders', 'saveCausalLMFolder of a model from another family\'s folder', 'CheckpointError', /^saveCausalLMFolder: config\.json in \S+decoders\/gpt2\/? is for model_type "gpt2", the model is "qwen3"; pass the folder the model was loaded from\.$/, () => saveOther()),
  rejects('decoders', 'trainCausalLanguageModel with no texts', E, "trainCausalLanguageModel: 'texts' must be a non-empty list of strings; received array [].", () => train([], {})),
];
