import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { precompiledNormalizer } from './precompiled-charsmap.js';
const data = JSON.parse(readFileSync('/tmp/cc/data.json', 'utf8')) as { name: string; b64: string }[];
it('bench', () => {
  const t0 = performance.now();
  const n = precompiledNormalizer(data[1]!.b64);
  const tParse = performance.now() - t0;
  const en = 'The quick brown fox jumps over the lazy dog, while 42 people watch. '.repeat(15000);
  const mixed = 'Hello ＷＯＲＬＤ café 한국어 日本語のテキスト ﺍﻟﻌﺮﺑﻴﺔ नमस्ते 👨‍👩‍👧 '.repeat(15000);
  for (const [name, s] of [['en', en], ['mixed', mixed]] as const) {
    n(s.slice(0, 1000));
    const t1 = performance.now(); const r = n(s); const ms = performance.now() - t1;
    const t2 = performance.now(); let c = 0; for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) c++; const seg = performance.now() - t2;
    const t3 = performance.now(); s.normalize('NFKC'); const nfkc = performance.now() - t3;
    console.log(name, s.length, 'chars', ms.toFixed(1), 'ms; segmenter alone', seg.toFixed(1), 'ms; NFKC', nfkc.toFixed(1), 'ms', r.length, c);
  }
  console.log('parse ms', tParse.toFixed(1));
});
