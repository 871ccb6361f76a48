import { InvalidArgumentError } from '@attnkit/errors';
import { fixtureValues, thrown, type FixtureFile } from '@attnkit/test-utils';
import fixtures from '@attnkit/reference/fixtures/training.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { linearScheduleWithWarmup, type LinearScheduleOptions } from './linear-schedule-with-warmup.js';

const CASES = (fixtures as unknown as FixtureFile).cases;
const SCHEDULES = Object.keys(CASES).filter((name) => name.startsWith('schedule '));

describe('linearScheduleWithWarmup', () => {
  it.each(SCHEDULES)('equals transformers get_linear_schedule_with_warmup read from LambdaLR: %s', (name) => {
    const { inputs, outputs } = CASES[name]!;
    const schedule = linearScheduleWithWarmup({ warmupSteps: Number(inputs['warmupSteps']), totalSteps: Number(inputs['totalSteps']) });
    const expected = fixtureValues(outputs['multipliers']!);
    expect(expected.map((_, step) => schedule(step))).toEqual(expected); // the same float64 arithmetic: exact
  });

  it('covers the fixture', () => expect(SCHEDULES.length).toBe(4));

  it.each([
    [{ warmupSteps: 11, totalSteps: 10 }, "linearScheduleWithWarmup: 'warmupSteps' must be an integer from 0 to totalSteps = 10; received 11."],
    [{ warmupSteps: -1, totalSteps: 10 }, "linearScheduleWithWarmup: 'warmupSteps' must be an integer ≥ 0; received number -1."],
    [{ warmupSteps: 1.5, totalSteps: 10 }, "linearScheduleWithWarmup: 'warmupSteps' must be an integer ≥ 0; received number 1.5."],
    [{ warmupSteps: 0, totalSteps: NaN }, "linearScheduleWithWarmup: 'totalSteps' must be an integer ≥ 0; received number NaN."],
    [{ warmupSteps: 0 }, "linearScheduleWithWarmup: 'totalSteps' must be an integer ≥ 0; received undefined."],
    [{ warmupSteps: 0, totalSteps: 5, warmupRatio: 0.1 }, "linearScheduleWithWarmup: 'options' must be an object with only the keys warmupSteps, totalSteps; received the unknown key 'warmupRatio'."],
    [undefined, "linearScheduleWithWarmup: 'options' must be an object { warmupSteps, totalSteps }; received undefined."],
  ])('refuses bad options with a typed error (%#)', (options, message) => {
    const error = thrown(() => linearScheduleWithWarmup(options as LinearScheduleOptions));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe(message);
  });

  it('refuses a step that is not an integer ≥ 0', () => {
    const schedule = linearScheduleWithWarmup({ warmupSteps: 1, totalSteps: 3 });
    const error = thrown(() => schedule(-1));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("linearScheduleWithWarmup(...): 'step' must be an integer ≥ 0; received number -1.");
  });
});
