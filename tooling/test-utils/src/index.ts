export { findChromium, CHROMIUM_HOWTO, type ChromiumLocation } from './find-chromium.js';
export { leaksOf } from './leaks-of.js';
