import { describe, expect, it } from 'vitest';
import { AttnkitError } from './attnkit-error.js';
import { boundMessage, MAX_MESSAGE_LENGTH } from './bound-message.js';
import { InvalidArgumentError } from './invalid-argument-error.js';

describe('boundMessage', () => {
  it('leaves short messages alone', () => {
    expect(boundMessage('f: bad.')).toBe('f: bad.');
  });

  it('keeps the start and the end of a long message and says how much was left out', () => {
    const message = `start ${'k'.repeat(50_000)} end of the fix.`;
    const bounded = boundMessage(message);
    expect(bounded.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(bounded.startsWith('start kkk')).toBe(true);
    expect(bounded.endsWith('kkk end of the fix.')).toBe(true);
    const omitted = Number(/\[(\d+) characters omitted\]/.exec(bounded)?.[1]);
    expect(bounded.length - ` … [${omitted} characters omitted] … `.length + omitted).toBe(message.length);
  });

  it('never splits a surrogate pair', () => {
    const bounded = boundMessage('😀'.repeat(5_000));
    expect(bounded).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it('is applied by every AttnkitError, including InvalidArgumentError with a huge received value', () => {
    expect(new AttnkitError('X', 'y'.repeat(100_000)).message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    const error = new InvalidArgumentError({ caller: 'f', argument: 'keys', expected: 'known keys', received: Array.from({ length: 10_000 }, (_, i) => `layer.${i}.weight`).join(', '), hint: 'Rename them.' });
    expect(error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(error.message.startsWith("f: 'keys' must be known keys; received layer.0.weight")).toBe(true);
    expect(error.message.endsWith('Rename them.')).toBe(true);
    expect(error.received.length).toBeGreaterThan(MAX_MESSAGE_LENGTH); // the structured field keeps everything
  });
});
