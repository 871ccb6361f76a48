import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { ModelLoadError } from '@attnkit/hub';
import { leaksOf, servedPath, thrown } from '@attnkit/test-utils';
import fixture from '@attnkit/reference/fixtures/modernbert.json' with { type: 'json' };
import { parseBertConfig } from '../bert/bert-config.js';
import { parseSequenceClassificationConfig } from '../classification/classification-config.js';
import { loadSequenceClassifier } from '../classification/load-sequence-classifier.js';
import { loadEncoder } from '../load/load-encoder.js';
import { parseModernBertConfig } from './modernbert-config.js';
import { ModernBertForSequenceClassification, modernBertClassifierKeys } from './modernbert-for-sequence-classification.js';
import { ModernBertModel } from './modernbert-model.js';
import { ModernBertForMaskedLM } from './modernbert-for-masked-lm.js';
import { loadModernBertForMaskedLM } from './load-modernbert-for-masked-lm.js';

// How ModernBERT folders load (the numbers are checked against transformers in modernbert.parity.test.ts).
const base = { model_type: 'modernbert', vocab_size: 100, hidden_size: 32, intermediate_size: 32, num_hidden_layers: 2, num_attention_heads: 4, pad_token_id: 0, local_attention: 4 };
const inputs = { inputIds: fixture.encoder.inputs.input_ids, attentionMask: fixture.encoder.inputs.attention_mask };

function folder(relative: string): string {
  const here = import.meta.url;
  return servedPath(new URL(`../../../../tooling/reference/fixtures/${relative}/`, here));
}

beforeAll(() => useBackend('cpu'));

describe('loading ModernBERT folders', () => {
  it('loadEncoder takes the encoder of a classifier folder (model.* keys), skipping head.* and classifier.* with a notice', async () => {
    const notices: string[] = [];
    const model = await loadEncoder(folder('modernbert/cls'), { onNotice: (m) => notices.push(m) });
    expect(model).toBeInstanceOf(ModernBertModel);
    expect(notices.join('\n')).toMatch(/loadEncoder: skipped 4 tensors of heads the encoder does not have \((classifier|head)\./);
    model.dispose();
  });

  it('loadSequenceClassifier refuses a folder without a head, and with newHead: true initialises head.* and classifier.*', async () => {
    const error = await loadSequenceClassifier(folder('modernbert/sentence-mean')).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error?.message).toMatch(/has no classification head \(head\.dense\.weight, head\.norm\.weight, classifier\.weight, classifier\.bias\)/);
    const model = await loadSequenceClassifier(folder('modernbert/sentence-mean'), { newHead: true, seed: 1 });
    expect(model.initialisedKeys).toEqual(modernBertClassifierKeys(model.config as never));
    const leaks = await leaksOf(() => model.forward(inputs).logits.dispose());
    expect(leaks.tensors).toBe(0);
    model.dispose();
  });

  it('int8: every Linear of the encoder becomes Int8Linear and the outputs stay near float32', async () => {
    const [float, int8] = await Promise.all([loadEncoder(folder(fixture.encoder.folder)), loadEncoder(folder(fixture.encoder.folder), { quantize: 'int8' })]);
    const [a, b] = [float.forward(inputs).lastHiddenState, int8.forward(inputs).lastHiddenState];
    const [x, y] = [a.dataSync(), b.dataSync()];
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff = Math.max(diff, Math.abs((x[i] as number) - (y[i] as number)));
    expect(diff).toBeGreaterThan(0);
    expect(diff).toBeLessThan(0.5);
    [a, b, float, int8].forEach((t) => t.dispose());
  });
});

describe('loading ModernBERT masked-LM folders', () => {
  it('loadModernBertForMaskedLM refuses a folder without the head, naming the missing keys; loadEncoder skips head.* and decoder.*', async () => {
    const error = await loadModernBertForMaskedLM(folder('modernbert/sentence-mean')).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/missing.*head\.dense\.weight/s);
    const notices: string[] = [];
    const encoder = await loadEncoder(folder('modernbert/mlm'), { onNotice: (m) => notices.push(m) });
    expect(encoder).toBeInstanceOf(ModernBertModel);
    expect(notices.join('\n')).toMatch(/skipped 3 tensors of heads/);
    encoder.dispose();
  });

  it('without tie_word_embeddings the decoder has its own weight [V, E]', async () => {
    const mlm = new ModernBertForMaskedLM(parseModernBertConfig({ ...base, tie_word_embeddings: false, decoder_bias: false }), undefined, { seed: 2 });
    expect(mlm.namedParameters().filter(([name]) => name.startsWith('decoder.')).map(([name, p]) => [name, p.shape])).toEqual([['decoder.weight', [100, 32]]]);
    const leaks = await leaksOf(() => {
      const { logits } = mlm.forward({ inputIds: [[1, 5, 2]] });
      expect(logits.shape).toEqual([1, 3, 100]);
      logits.dispose();
    });
    expect(leaks.tensors).toBe(0);
    mlm.dispose();
  });
});

describe('building ModernBERT without a checkpoint', () => {
  it('draws every parameter (seeded), runs and leaks nothing, in both classes', async () => {
    const config = parseModernBertConfig(base);
    const leaks = await leaksOf(() => {
      const model = new ModernBertModel(config, undefined, { seed: 3 });
      expect(model.namedParameters().map(([name]) => name)).toEqual([
        'embeddings.tok_embeddings.weight', 'embeddings.norm.weight',
        'layers.0.attn.Wqkv.weight', 'layers.0.attn.Wo.weight', 'layers.0.mlp_norm.weight', 'layers.0.mlp.Wi.weight', 'layers.0.mlp.Wo.weight',
        'layers.1.attn_norm.weight', 'layers.1.attn.Wqkv.weight', 'layers.1.attn.Wo.weight', 'layers.1.mlp_norm.weight', 'layers.1.mlp.Wi.weight', 'layers.1.mlp.Wo.weight',
        'final_norm.weight',
      ]);
      model.forward({ inputIds: [[1, 5, 6, 2]] }).lastHiddenState.dispose();
      model.dispose();
      const classifier = new ModernBertForSequenceClassification(parseSequenceClassificationConfig({ ...base, classifier_pooling: 'mean', num_labels: 3 }), undefined, { seed: 3 });
      const logits = classifier.forward({ inputIds: [[1, 5, 6, 2], [1, 7, 2, 0]], attentionMask: [[1, 1, 1, 1], [1, 1, 1, 0]] }).logits;
      expect(logits.shape).toEqual([2, 3]);
      logits.dispose();
      classifier.dispose();
    });
    expect(leaks.tensors).toBe(0);
  });

  it('refuses the config of another family with a typed error', () => {
    const error = thrown(() => new ModernBertModel(parseBertConfig({ vocab_size: 10, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 8, max_position_embeddings: 8 }) as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/^ModernBertModel: 'config.modelType' must be "modernbert"; received "bert"/);
  });

  it('refuses token types other than zero (ModernBERT has none)', () => {
    const model = new ModernBertModel(parseModernBertConfig(base), undefined, { seed: 1 });
    expect(thrown(() => model.forward({ inputIds: [[1, 2]], tokenTypeIds: [[0, 1]] }))).toBeInstanceOf(InvalidArgumentError);
    model.dispose();
  });
});
