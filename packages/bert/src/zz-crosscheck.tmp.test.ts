import { readFileSync } from 'node:fs';
import { it, expect } from 'vitest';
import { precompiledNormalizer } from './precompiled-charsmap.js';
const data = JSON.parse(readFileSync('/tmp/cc/data.json', 'utf8')) as { name: string; b64: string; texts: string[]; normalized: string[]; single: Record<string, string> }[];
it('crosscheck', () => {
  for (const d of data) {
    const n = precompiledNormalizer(d.b64);
    let bad = 0; const ex: string[] = [];
    d.texts.forEach((t, i) => { const r = n(t); if (r !== d.normalized[i]) { bad++; if (ex.length < 5) ex.push(JSON.stringify([t, r, d.normalized[i]])); } });
    let badSingle = 0;
    for (let cp = 1; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp); const want = d.single[String(cp)] ?? c; const got = n(c);
      if (got !== want) { badSingle++; if (ex.length < 10) ex.push(`cp ${cp.toString(16)} ${JSON.stringify([got, want])}`); }
    }
    const t0 = performance.now(); for (const t of d.texts) n(t); const ms = performance.now() - t0;
    console.log(d.name, 'texts', d.texts.length - bad, '/', d.texts.length, 'single bad', badSingle, 'ms', ms.toFixed(0), ex.join('\n'));
  }
  expect(1).toBe(1);
}, 600000);
