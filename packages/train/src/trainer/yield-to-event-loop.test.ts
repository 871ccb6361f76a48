import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from './yield-to-event-loop.js';

describe('yieldToEventLoop', () => {
  it('lets a macrotask queued before it (a timer, a signal handler) run first', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    await new Promise((r) => setTimeout(r, 5)); // the timer is due
    setImmediate(() => order.push('immediate'));
    await Promise.resolve();
    order.push('after microtask');
    await yieldToEventLoop();
    order.push('after yield');
    expect(order).toEqual(['timer', 'after microtask', 'immediate', 'after yield']);
  });
});
