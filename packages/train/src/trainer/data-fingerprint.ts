import type { CheckedPairs } from './training-pairs.js';

/**
 * A short hash (FNV-1a, 32 bits, hex) of the training examples' texts and labels in order, kept
 * in a checkpoint so that resuming with other data is refused instead of silently reordering it.
 *
 * @example
 * dataFingerprint({ texts: [['a', 'b']], labels: [] }); // '36e65dea'
 */
export function dataFingerprint(pairs: CheckedPairs): string {
  let hash = 0x811c9dc5;
  const feed = (text: string): void => {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    hash = Math.imul(hash ^ 0x1f, 0x01000193) >>> 0; // a separator: ['ab', 'c'] and ['a', 'bc'] differ
  };
  for (const row of pairs.texts) for (const text of row) feed(text);
  for (const label of pairs.labels) feed(String(label));
  return hash.toString(16).padStart(8, '0');
}
