import { describe, expect, it } from 'vitest';
import { rejects, safely } from '../catalogue/catalogue-case.js';
import { countOutcomes } from './count-outcomes.js';

const masks = rejects('masks', 'keyLength 0', 'InvalidArgumentError', /keyLength/, () => undefined);
const nn = safely('nn', 'a failed load', 'nothing assigned', () => undefined, () => true);

describe('countOutcomes', () => {
  it('counts per area × backend, areas together in order of appearance, leaks apart from outcomes', () => {
    const rows = countOutcomes([
      { case: masks, backend: 'cpu', outcome: 'typed error', leaked: 0 },
      { case: nn, backend: 'cpu', outcome: 'documented result', leaked: 2 },
      { case: masks, backend: 'wasm', outcome: 'crash', leaked: 0 },
      { case: masks, backend: 'cpu', outcome: 'silent wrong', leaked: 0 },
      { case: nn, backend: 'cpu', outcome: 'garbage', leaked: 0 },
      { case: nn, backend: 'cpu', outcome: 'hang', leaked: 0 },
    ]);
    const zero = { typedErrors: 0, documentedResults: 0, crashes: 0, hangs: 0, leaks: 0, garbage: 0, silentWrong: 0 };
    expect(rows).toEqual([
      { ...zero, area: 'masks', backend: 'cpu', cases: 2, typedErrors: 1, silentWrong: 1 },
      { ...zero, area: 'masks', backend: 'wasm', cases: 1, crashes: 1 },
      { ...zero, area: 'nn', backend: 'cpu', cases: 3, documentedResults: 1, leaks: 1, garbage: 1, hangs: 1 },
    ]);
  });
});
