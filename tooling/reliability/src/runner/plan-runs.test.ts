import { describe, expect, it } from 'vitest';
import { rejects } from '../catalogue/catalogue-case.js';
import { planRuns } from './plan-runs.js';

const tensorOnly = { ...rejects('masks', 'keyLength 0', 'InvalidArgumentError', /keyLength/, () => undefined), backends: ['cpu', 'wasm', 'webgl'] as const };
const fileCase = rejects('loaders', 'no config.json', 'ModelLoadError', /config/, () => undefined);

describe('planRuns', () => {
  it('runs a case declaring backends once per backend the environment has, any other once on cpu', () => {
    expect(planRuns([tensorOnly, fileCase], ['cpu', 'wasm']).map((r) => `${r.case.area} ${r.backend}`)).toEqual(['masks cpu', 'masks wasm', 'loaders cpu']);
    expect(planRuns([tensorOnly], ['cpu', 'wasm', 'webgl']).map((r) => r.backend)).toEqual(['cpu', 'wasm', 'webgl']);
    expect(planRuns([{ ...fileCase, backends: ['webgl'] }], ['cpu', 'wasm'])).toEqual([]);
  });
});
