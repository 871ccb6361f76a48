import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@attnkit/errors';
import { parseSequenceClassificationConfig } from './classification-config.js';

const BERT = { model_type: 'bert', vocab_size: 30, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 16, hidden_dropout_prob: 0.1 };

describe('parseSequenceClassificationConfig', () => {
  it('reads id2label, label2id and problem_type as transformers does', () => {
    const config = parseSequenceClassificationConfig({ ...BERT, id2label: { 1: 'POSITIVE', 0: 'NEGATIVE' }, label2id: { NEGATIVE: 0, POSITIVE: 1 }, problem_type: 'single_label_classification', classifier_dropout: 0.3 });
    expect([config.numLabels, config.id2label, [...config.label2id], config.problemType, config.classifierDropout]).toEqual([2, ['NEGATIVE', 'POSITIVE'], [['NEGATIVE', 0], ['POSITIVE', 1]], 'single_label_classification', 0.3]);
  });

  it('defaults to num_labels, else 2 labels named LABEL_i, and the family dropout', () => {
    const plain = parseSequenceClassificationConfig(BERT);
    expect([plain.numLabels, plain.id2label, plain.problemType, plain.classifierDropout]).toEqual([2, ['LABEL_0', 'LABEL_1'], undefined, 0.1]);
    expect(parseSequenceClassificationConfig({ ...BERT, num_labels: 1 }).id2label).toEqual(['LABEL_0']);
    const distil = { model_type: 'distilbert', vocab_size: 30, dim: 8, n_layers: 1, n_heads: 2, hidden_dim: 16, max_position_embeddings: 16 };
    expect(parseSequenceClassificationConfig(distil).classifierDropout).toBe(0.2); // seq_classif_dropout's default
    expect(parseSequenceClassificationConfig({ ...distil, seq_classif_dropout: 0.5 }).classifierDropout).toBe(0.5);
  });

  it.each([
    [{ id2label: { 0: 'a', 2: 'b' } }, "parseSequenceClassificationConfig: 'id2label' must be the indexes 0 to 1, each once (one per logit); received [\"0\",\"2\"]."],
    [{ id2label: {} }, "parseSequenceClassificationConfig: 'id2label' must be one to 1000000 labels; received {}."],
    [{ id2label: { 0: 7 } }, "parseSequenceClassificationConfig: 'id2label.0' must be a label name (a string); received 7."],
    [{ num_labels: 0 }, "parseSequenceClassificationConfig: 'num_labels' must be an integer from 1 to 1000000; received 0."],
    [{ label2id: { a: 5 }, num_labels: 2 }, "parseSequenceClassificationConfig: 'label2id.a' must be a label index in [0, 2); received 5."],
    [{ problem_type: 'ranking' }, "parseSequenceClassificationConfig: 'problem_type' must be \"regression\", \"single_label_classification\", \"multi_label_classification\"; received \"ranking\"."],
    [{ problem_type: 'single_label_classification', num_labels: 1 }, "parseSequenceClassificationConfig: 'problem_type' must be \"regression\" for one label (\"single_label_classification\" needs 2 or more labels); received \"single_label_classification\"."],
    [{ classifier_dropout: 1.5 }, "parseSequenceClassificationConfig: 'classifier_dropout' must be a probability in [0, 1) or null; received 1.5."],
  ])('refuses %j, naming the key', (extra, message) => {
    expect(() => parseSequenceClassificationConfig({ ...BERT, ...extra })).toThrow(InvalidArgumentError);
    expect(() => parseSequenceClassificationConfig({ ...BERT, ...extra })).toThrow(message);
  });
});
