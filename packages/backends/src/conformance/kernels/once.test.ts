import { describe, expect, it, vi } from 'vitest';
import { once } from './once.js';

describe('once', () => {
  it('computes on the first call only, undefined included', () => {
    const make = vi.fn(() => undefined);
    const value = once(make);
    expect(make).not.toHaveBeenCalled();
    expect([value(), value()]).toEqual([undefined, undefined]);
    expect(make).toHaveBeenCalledTimes(1);
  });
});
