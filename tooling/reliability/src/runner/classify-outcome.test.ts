import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, UseAfterDisposeError } from '@attnkit/errors';
import { rejects, safely } from '../catalogue/catalogue-case.js';
import { classifyOutcome } from './classify-outcome.js';

const invalid = new InvalidArgumentError({ caller: 'causalMask', argument: 'queryLength', expected: 'an integer ≥ 1', received: 'number 0' });
const rejecting = rejects('masks', 'causal mask of length 0', 'InvalidArgumentError', "causalMask: 'queryLength' must be an integer ≥ 1; received number 0.", () => undefined);
const zeros = safely('masks', 'fully masked row', 'zeros', () => undefined, (v) => JSON.stringify(v) === '[0,0]');

describe('classifyOutcome', () => {
  it("'typed error': the expected class and message; any subclass for 'AttnkitError'", async () => {
    expect(invalid.message).toBe(rejecting.error!.message);
    expect(await classifyOutcome(rejecting, { threw: invalid })).toEqual({ outcome: 'typed error', detail: '' });
    expect((await classifyOutcome(rejects('entry points', 'f(null)', 'AttnkitError', /queryLength/, () => undefined), { threw: invalid })).outcome).toBe('typed error');
  });

  it("'documented result': no error, finite, the check passes; NaN passes where the case documents it", async () => {
    expect(await classifyOutcome(zeros, { returned: [0, 0] })).toEqual({ outcome: 'documented result', detail: '' });
    const nanDocumented = safely('attention', 'Infinity in the query', 'NaN, as PyTorch', () => undefined, (v) => (v as number[]).some(Number.isNaN), { nonFinite: true });
    expect((await classifyOutcome(nanDocumented, { returned: [NaN, 1] })).outcome).toBe('documented result');
  });

  it("'crash': an untyped exception, another typed class or message, or any error where a result is documented", async () => {
    const typeError = await classifyOutcome(rejecting, { threw: new TypeError("Cannot read properties of undefined (reading 'length')") });
    expect(typeError).toEqual({ outcome: 'crash', detail: expect.stringMatching(/^expected InvalidArgumentError ".*"; got TypeError: Cannot read properties of undefined/) as unknown as string });
    expect((await classifyOutcome(rejecting, { threw: new UseAfterDisposeError('Linear.forward') })).outcome).toBe('crash');
    const otherMessage = new InvalidArgumentError({ caller: 'causalMask', argument: 'keyLength', expected: 'an integer ≥ 1', received: 'number 0' });
    expect((await classifyOutcome(rejecting, { threw: otherMessage })).outcome).toBe('crash');
    expect((await classifyOutcome(zeros, { threw: invalid })).outcome).toBe('crash');
    expect((await classifyOutcome(zeros, { threw: 'a string' })).detail).toBe('documented result: zeros; threw a thrown "a string"');
  });

  it("'hang': the watchdog bound was exceeded, whatever the case expected", async () => {
    expect(await classifyOutcome(zeros, { hung: 30_000 })).toEqual({ outcome: 'hang', detail: 'still running after the 30 s watchdog' });
    expect((await classifyOutcome(rejecting, { hung: 30_000 })).outcome).toBe('hang');
  });

  it("'garbage': NaN or ±Infinity where the documented result has none, even when the check would pass", async () => {
    expect(await classifyOutcome(zeros, { returned: [NaN, 0] })).toEqual({ outcome: 'garbage', detail: 'documented result: zeros; NaN at value[0] in [null,0]' });
    const lenient = safely('nn', 'a forward pass', 'two values', () => undefined, (v) => (v as number[]).length === 2);
    expect((await classifyOutcome(lenient, { returned: Float32Array.of(1, -Infinity) })).outcome).toBe('garbage');
  });

  it("'silent wrong': no error where one was expected, or a finite value the check refuses (or cannot read)", async () => {
    expect(await classifyOutcome(rejecting, { returned: undefined })).toEqual({ outcome: 'silent wrong', detail: `expected InvalidArgumentError ${JSON.stringify(rejecting.error!.message)}; no error, returned undefined` });
    expect(await classifyOutcome(zeros, { returned: [0, 0.5] })).toEqual({ outcome: 'silent wrong', detail: 'documented result: zeros; got [0,0.5]' });
    const reading = safely('nn', 'state', 'values', () => undefined, (v) => (v as { values: number[] }).values.length === 1);
    expect((await classifyOutcome(reading, { returned: 3 })).outcome).toBe('silent wrong');
  });
});
