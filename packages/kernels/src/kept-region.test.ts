import { describe, expect, it } from 'vitest';
import { KeptRegion } from './kept-region.js';

describe('KeptRegion', () => {
  it('places entries one after another, 16-aligned, from the start it was given', () => {
    const region = new KeptRegion<{ offset: number; bytes: number }>(1000);
    region.restart(100);
    const a = region.reserve(10)!;
    region.commit(1, {}, { offset: a, bytes: 10 });
    const b = region.reserve(40)!;
    region.commit(2, {}, { offset: b, bytes: 40 });
    expect([a, b, region.end]).toEqual([112, 128, 176]);
    expect(region.get(2)).toEqual({ offset: 128, bytes: 40 });
    expect(region.stats).toEqual({ count: 2, bytes: 50 });
  });

  it('refuses an entry larger than the budget, and one that would pass it while every entry is alive, keeping those', () => {
    const region = new KeptRegion<{ bytes: number }>(64);
    region.restart(0);
    expect(region.reserve(65)).toBeUndefined();
    const owner = {};
    region.commit(1, owner, { bytes: region.reserve(48)! === 0 ? 48 : -1 });
    for (let pass = 0; pass < 3; pass++) expect(region.reserve(32)).toBeUndefined(); // 48 + 32 > 64: packed per call, each time
    expect(region.get(1)).toEqual({ bytes: 48 }); // still kept: a pass over weights larger than the budget does not drop them
    expect(region.reserve(16)).toBe(48); // what still fits is placed
    expect(region.stats.count).toBe(1);
  });

  it('reserves without keeping: an entry is seen only once committed', () => {
    const region = new KeptRegion<{ bytes: number }>(1 << 20);
    region.restart(16);
    region.reserve(100);
    expect(region.get(5)).toBeUndefined();
    expect(region.end).toBe(128);
  });

  it('counts its restarts, so that a caller holding two reservations can tell the first one was given up', () => {
    const region = new KeptRegion<{ bytes: number }>(1 << 20);
    expect(region.restarts).toBe(0);
    region.restart(16);
    region.commit(1, {}, { bytes: region.reserve(32)! > 0 ? 32 : -1 });
    expect(region.restarts).toBe(1);
    region.reserve(64); // fits, nothing collected: no restart
    expect(region.restarts).toBe(1);
    region.restart(16);
    expect([region.restarts, region.get(1), region.end]).toEqual([2, undefined, 16]);
  });
});

