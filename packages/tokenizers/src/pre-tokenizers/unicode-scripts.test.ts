import { describe, expect, it } from 'vitest';
import { unicodeScripts } from './unicode-scripts.js';

describe('unicodeScripts', () => {
  it('splits where the script changes, spaces staying behind and leading ones dropped (tokenizers 0.23 UnicodeScripts)', () => {
    expect(unicodeScripts([{ text: ' hello мир 東京タワー 한국 x1', fromStart: 1 }]).map((p) => p.text)).toEqual(['hello ', 'мир ', '東京タワー ', '한국 ', 'x', '1']);
    expect(unicodeScripts([{ text: '   ', fromStart: 1 }])).toEqual([]);
  });
});
