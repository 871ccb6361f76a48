import { zeros } from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { describe, expect, it } from 'vitest';
import { messageText, messageTexts } from './message-text.js';

describe('messageText', () => {
  it('keeps strings and describes anything else, a disposed tensor and a Symbol included', () => {
    const t = zeros([2, 3]);
    t.dispose();
    expect([messageText('f'), messageText(null), messageText(undefined), messageText(NaN), messageText(Symbol('c')), messageText(t), messageText({})]).toEqual(['f', 'null', 'undefined', 'number NaN', 'symbol c', 'a disposed float32 tensor [2, 3]', 'Object']);
  });
  it('makes each item of a list text, holes included, and anything else no list', () => {
    expect(messageTexts(['cpu', 1, , null])).toEqual(['cpu', 'number 1', 'undefined', 'null']); // eslint-disable-line no-sparse-arrays
    expect([messageTexts(null), messageTexts('cpu'), messageTexts({ length: 2 })]).toEqual([[], [], []]);
  });
});
