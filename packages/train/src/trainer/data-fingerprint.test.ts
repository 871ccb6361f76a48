import { describe, expect, it } from 'vitest';
import { dataFingerprint } from './data-fingerprint.js';

describe('dataFingerprint', () => {
  it('is stable, and changes with any text, label, order or split between texts', () => {
    expect(dataFingerprint({ texts: [['a', 'b']], labels: [] })).toBe('36e65dea');
    expect(dataFingerprint({ texts: [['a', 'bc']], labels: [] })).not.toBe(dataFingerprint({ texts: [['ab', 'c']], labels: [] }));
    expect(dataFingerprint({ texts: [['x', 'y'], ['z', 'w']], labels: [] })).not.toBe(dataFingerprint({ texts: [['z', 'w'], ['x', 'y']], labels: [] }));
    expect(dataFingerprint({ texts: [['x', 'y']], labels: [0.5] })).not.toBe(dataFingerprint({ texts: [['x', 'y']], labels: [0.6] }));
  });
});
