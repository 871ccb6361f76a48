import { afterEach, describe, expect, it } from 'vitest';
import { withLogicalCores } from './with-logical-cores.js';

const g = globalThis as { navigator?: object };
const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator');

afterEach(() => {
  if (original) Object.defineProperty(globalThis, 'navigator', original);
});

describe('withLogicalCores', () => {
  it('shadows hardwareConcurrency only while fn runs, then restores the prototype getter', async () => {
    class FakeNavigator { get hardwareConcurrency(): number { return 2; } }
    Object.defineProperty(globalThis, 'navigator', { configurable: true, value: new FakeNavigator() });
    const seen = await withLogicalCores(4, async () => (g.navigator as FakeNavigator).hardwareConcurrency);
    expect(seen).toBe(4);
    expect((g.navigator as FakeNavigator).hardwareConcurrency).toBe(2);
    expect(Object.prototype.hasOwnProperty.call(g.navigator, 'hardwareConcurrency')).toBe(false);
  });
  it('restores also when fn throws', async () => {
    class FakeNavigator { get hardwareConcurrency(): number { return 2; } }
    Object.defineProperty(globalThis, 'navigator', { configurable: true, value: new FakeNavigator() });
    await expect(withLogicalCores(4, async () => { throw new Error('init failed'); })).rejects.toThrow('init failed');
    expect((g.navigator as FakeNavigator).hardwareConcurrency).toBe(2);
  });
});
