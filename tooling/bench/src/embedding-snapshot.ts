// A before/after check for refactors that must not change a single bit: every reference fixture
// folder loaded as users load it, on cpu and wasm (float32 and int8), its outputs hashed byte for
// byte. Run it on two commits and compare the two files:
//   pnpm --filter @attnkit/bench snapshot /tmp/before.json   (on the old commit)
//   pnpm --filter @attnkit/bench snapshot /tmp/after.json    (on the new one)
//   pnpm --filter @attnkit/bench snapshot --compare /tmp/before.json /tmp/after.json
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { env, type Tensor } from '@tensorflow/tfjs-core';
import { useBackend } from '@attnkit/backends';
import { loadSentenceEncoder } from '@attnkit/sentence';

const fixtures = fileURLToPath(new URL('../../reference/fixtures/', import.meta.url));
const json = (name: string) => JSON.parse(readFileSync(`${fixtures}${name}`, 'utf8')) as Record<string, Record<string, unknown>>;

/** `loadEncoder` and `loadTokenizer`: from the package that exports them on this commit. */
async function loaders(): Promise<{ loadEncoder: (s: string, o?: object) => Promise<{ forward(i: object): Record<string, Tensor | undefined>; dispose(): void }>; loadTokenizer: (s: string) => Promise<{ encode(t: string[]): { inputIds: number[][] } }> }> {
  for (const [models, tokenizers] of [['@attnkit/models', '@attnkit/tokenizers'], ['@attnkit/models', '@attnkit/models']] as const) {
    try {
      const m = await import(models);
      const t = await import(tokenizers);
      return { loadEncoder: m.loadEncoder, loadTokenizer: t.loadTokenizer };
    } catch {
      // not on this commit: the next pair
    }
  }
  throw new Error('neither @attnkit/models nor @attnkit/bert resolves');
}

async function hash(tensor: Tensor | undefined): Promise<string> {
  if (tensor === undefined) return 'none';
  const values = await tensor.data();
  return `${tensor.shape.join('x')}:${createHash('sha256').update(new Uint8Array(values.buffer, values.byteOffset, values.byteLength)).digest('hex').slice(0, 24)}`;
}

async function snapshot(): Promise<Record<string, string>> {
  env().set('IS_TEST', true);
  const { loadEncoder, loadTokenizer } = await loaders();
  const out: Record<string, string> = {};
  const sentence = json('sentence.json');
  const families = json('families.json');
  for (const backend of ['cpu', 'wasm'] as const) {
    await useBackend(backend);
    for (const [name, fixture] of Object.entries(sentence)) {
      for (const quantize of [undefined, 'int8'] as const) {
        const model = await loadSentenceEncoder(`${fixtures}${fixture['folder'] as string}`, quantize === undefined ? {} : { quantize });
        const embeddings = await model.encode(fixture['texts'] as string[]);
        out[`sentence/${name}/${backend}/${quantize ?? 'float32'}`] = await hash(embeddings);
        embeddings.dispose();
        model.dispose();
      }
    }
    for (const [name, fixture] of Object.entries(families)) {
      const folder = `${fixtures}${fixture['folder'] as string}`;
      const inputs = fixture['inputs'] as { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] };
      for (const quantize of [undefined, 'int8'] as const) {
        const encoder = await loadEncoder(folder, quantize === undefined ? {} : { quantize });
        const result = encoder.forward({ inputIds: inputs.input_ids, attentionMask: inputs.attention_mask, ...(inputs.token_type_ids === undefined ? {} : { tokenTypeIds: inputs.token_type_ids }) });
        out[`family/${name}/${backend}/${quantize ?? 'float32'}/last_hidden_state`] = await hash(result['lastHiddenState']);
        out[`family/${name}/${backend}/${quantize ?? 'float32'}/pooler_output`] = await hash(result['poolerOutput']);
        Object.values(result).forEach((t) => t?.dispose());
        encoder.dispose();
      }
      if (backend === 'cpu') {
        const tokenizer = await loadTokenizer(folder);
        out[`tokenizer/${name}`] = createHash('sha256').update(JSON.stringify(tokenizer.encode(fixture['input_texts'] as string[]).inputIds)).digest('hex').slice(0, 24);
      }
    }
  }
  return out;
}

const args = process.argv.slice(2);
if (args[0] === '--compare') {
  const [a, b] = [args[1], args[2]].map((file) => JSON.parse(readFileSync(file as string, 'utf8')) as Record<string, string>) as [Record<string, string>, Record<string, string>];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const differ = keys.filter((k) => a[k] !== b[k]);
  console.log(`${keys.length} outputs compared, ${differ.length} differ`);
  for (const k of differ) console.log(`  ${k}: ${a[k] ?? 'absent'} -> ${b[k] ?? 'absent'}`);
  process.exit(differ.length === 0 ? 0 : 1);
}
const file = args[0] ?? 'embedding-snapshot.json';
const result = await snapshot();
writeFileSync(file, `${JSON.stringify(result, null, 1)}\n`);
console.log(`${Object.keys(result).length} outputs hashed into ${file}`);
