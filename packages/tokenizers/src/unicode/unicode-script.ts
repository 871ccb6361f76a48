import { SCRIPT_RUNS } from './rust-unicode-tables.js';

let starts: Uint32Array | undefined;
let scripts: Uint8Array | undefined;

/**
 * The script the UnicodeScripts pre-tokenizer of the Rust `tokenizers` library gives a code point,
 * as a number (0 is its "Any": the space and code points outside its table; Hiragana, Katakana and
 * U+30FC read as Han), from the table read off that library (`rust-unicode-tables.ts`). Lone
 * surrogates are "Any".
 *
 * @example
 * unicodeScript(0x61) === unicodeScript(0x62); // true: both Latin
 */
export function unicodeScript(codePoint: number): number {
  if (starts === undefined || scripts === undefined) {
    const runs = SCRIPT_RUNS.split(',');
    starts = new Uint32Array(runs.length);
    scripts = new Uint8Array(runs.length);
    runs.forEach((run, i) => {
      const [start = '0', script = '0'] = run.split(':');
      starts![i] = Number.parseInt(start, 16);
      scripts![i] = Number.parseInt(script, 16);
    });
  }
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if ((starts[mid] ?? 0) <= codePoint) low = mid;
    else high = mid - 1;
  }
  return scripts[low] ?? 0;
}
