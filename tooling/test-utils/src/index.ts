// Browser-safe helpers only; Chromium discovery (node:fs) lives at '@attnkit/test-utils/chromium'.
export { leaksOf } from './leaks-of.js';
