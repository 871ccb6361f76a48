import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkAbortSignal } from './check-abort-signal.js';
import { checkFunction } from './check-function.js';

describe('checkFunction', () => {
  it('passes a function or undefined', () => {
    expect(() => checkFunction(() => 1, { caller: 'f', argument: 'onProgress' })).not.toThrow();
    expect(() => checkFunction(undefined, { caller: 'f', argument: 'onProgress' })).not.toThrow();
  });

  it.each([[42, 'number 42'], ['cb', "string 'cb'"], [null, 'null']])('refuses %j, naming the caller, the argument and what it received', (value, received) => {
    const call = () => checkFunction(value, { caller: 'loadEncoder', argument: 'onNotice', expected: 'a function (message) => void' });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`loadEncoder: 'onNotice' must be a function (message) => void; received ${received}.`);
  });
});

describe('checkAbortSignal', () => {
  it('passes an AbortSignal or undefined', () => {
    expect(() => checkAbortSignal(new AbortController().signal, { caller: 'f' })).not.toThrow();
    expect(() => checkAbortSignal(undefined, { caller: 'f' })).not.toThrow();
  });

  it.each([true, {}, { aborted: false }, null])('refuses %j with a typed error', (value) => {
    const call = () => checkAbortSignal(value, { caller: 'encode' });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(/^encode: 'signal' must be an AbortSignal \(from new AbortController\(\)\.signal\); received /);
  });
});
