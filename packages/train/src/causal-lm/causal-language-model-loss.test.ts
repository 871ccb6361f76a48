import { tensor2d, tensor3d, zeros, type Tensor } from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '@attnkit/backends';
import { InvalidArgumentError } from '@attnkit/errors';
import { leaksOf, thrown } from '@attnkit/test-utils';
import { causalLanguageModelLoss } from './causal-language-model-loss.js';

beforeAll(() => useBackend('cpu'));

// logits [B 1, T 3, V 2]: position 0 prefers id 1 by ln 3, position 1 prefers id 0 by ln 3, position 2 predicts nothing
const logits = () => tensor3d([[[0, Math.log(3)], [Math.log(3), 0], [5, -5]]]);
const p = { likely: Math.log(4 / 3), unlikely: Math.log(4) }; // −log of 3/4 and 1/4

describe('causalLanguageModelLoss', () => {
  it('shifts the labels by one: the logits at t are scored against the label at t + 1, the last position against nothing', () => {
    expect(causalLanguageModelLoss(logits(), [[1, 1, 0]]).arraySync()).toBeCloseTo((p.likely + p.likely) / 2, 6);
    expect(causalLanguageModelLoss(logits(), [[0, 0, 1]]).arraySync()).toBeCloseTo((p.unlikely + p.unlikely) / 2, 6);
  });

  it('ignores -100 and averages over the labels left; the first label is never a target', () => {
    expect(causalLanguageModelLoss(logits(), [[-100, 1, -100]]).arraySync()).toBeCloseTo(p.likely, 6);
    expect(causalLanguageModelLoss(logits(), tensor2d([[5, -100, 0]], undefined, 'int32')).arraySync()).toBeCloseTo(p.likely, 6); // the first label is shifted away unread (5 is outside V): as transformers, not checked
  });

  it('leaves padding out with attentionMask: a label counts where it and the token before it are tokens', () => {
    expect(causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[1, 1, 0]] }).arraySync()).toBeCloseTo(p.likely, 6); // right padding: the last label is padding
    expect(causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[0, 1, 1]] }).arraySync()).toBeCloseTo(p.likely, 6); // left padding: the first token is predicted by padding, left out
  });

  it('has a gradient only at the counted positions and leaks no tensor', async () => {
    const x = logits();
    expect(await leaksOf(() => causalLanguageModelLoss(x, [[0, 1, 0]], { attentionMask: [[1, 1, 1]] }).dispose())).toEqual({ tensors: 0, bytes: 0 });
    x.dispose();
  });

  it.each<[string, () => unknown, string]>([
    ['labels of another shape', () => causalLanguageModelLoss(logits(), [[0, 1]]), "causalLanguageModelLoss: 'labels' must be [B, T] = [1, 3], the logits' first two dimensions; received 1 rows of 2 values."],
    ['a labels tensor of another shape', () => causalLanguageModelLoss(logits(), tensor2d([[0, 1, 0, 1]], undefined, 'int32')), "causalLanguageModelLoss: 'labels' must be [B, T] = [1, 3], the logits' first two dimensions; received [1, 4]."],
    ['float labels', () => causalLanguageModelLoss(logits(), tensor2d([[0, 1, 0]])), "causalLanguageModelLoss: 'labels' must be int32 ids [B, T] = [1, 3]; received a float32 tensor [1, 3]. Labels are token ids: make them with tf.tensor2d(ids, undefined, 'int32') or pass nested arrays."],
    ['a fractional label', () => causalLanguageModelLoss(logits(), [[0, 0.5, 0]]), "causalLanguageModelLoss: 'labels[0][1]' must be an integer token id; received number 0.5."],
    ['a label outside the vocabulary', () => causalLanguageModelLoss(logits(), [[0, 1, 2]]), "causalLanguageModelLoss: 'labels[0][2]' must be a token id in [0, V = 2) or -100 (not trained on); received number 2."],
    ['a negative label other than -100', () => causalLanguageModelLoss(logits(), [[0, -1, 0]]), "causalLanguageModelLoss: 'labels[0][1]' must be a token id in [0, V = 2) or -100 (not trained on); received number -1."],
    ['every label -100 (transformers: NaN)', () => causalLanguageModelLoss(logits(), [[0, -100, -100]]), "causalLanguageModelLoss: 'labels' must be at least one label after the first position that is not -100 (nor padding): the loss is a mean over them; received 1 × 2 shifted labels, none counted. transformers returns NaN for such a batch; leave it out, or label at least one token."],
    ['every label padding', () => causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[1, 0, 0]] }), "causalLanguageModelLoss: 'labels' must be at least one label after the first position that is not -100 (nor padding): the loss is a mean over them; received 1 × 2 shifted labels, none counted. transformers returns NaN for such a batch; leave it out, or label at least one token."],
    ['one token (nothing to predict)', () => causalLanguageModelLoss(zeros([2, 1, 4]) as never, [[1], [2]]), "causalLanguageModelLoss: 'labels' must be at least one label after the first position that is not -100 (nor padding): the loss is a mean over them; received sequences of 1 token (nothing to predict). transformers returns NaN for such a batch; leave it out, or label at least one token."],
    ['a mask of 2s', () => causalLanguageModelLoss(logits(), [[0, 1, 0]], { attentionMask: [[1, 2, 1]] }), "causalLanguageModelLoss: 'attentionMask[0][1]' must be 0 or 1; received number 2."],
    ['logits of rank 2', () => causalLanguageModelLoss(zeros([3, 2]) as Tensor, [[0, 1, 0]]), "causalLanguageModelLoss: 'logits' must be a float32 tensor [B, T, V] (a causal LM's forward(...).logits); received float32 tensor of rank 2 [3, 2]."],
    ['an unknown option', () => causalLanguageModelLoss(logits(), [[0, 1, 0]], { mask: [[1, 1, 1]] } as never), "causalLanguageModelLoss: 'options' must be an object with only the keys attentionMask; received the unknown key 'mask'. Did you mean 'attentionMask'?"],
  ])('refuses %s with an InvalidArgumentError', (_, call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message.startsWith(message), error.message).toBe(true);
  });
});
