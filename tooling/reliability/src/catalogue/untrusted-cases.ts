import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromTorchStateDict } from '@attnkit/attention';
import { loadEncoder } from '@attnkit/models';
import { Tokenizer, loadTokenizer } from '@attnkit/tokenizers';
import { readSafetensors, writeSafetensors } from '@attnkit/hub';
import { loadSentenceEncoder, type SentenceEncoder } from '@attnkit/sentence';
import { rejects, safely, type CatalogueCase } from './catalogue-case.js';
import { repoPath } from './fixtures-path.js';

const U = 'untrusted files';
const L = 'ModelLoadError';
const fixture = (name: string) => repoPath(`tooling/reference/fixtures/sentence/${name}`);
const texts = ['constructor and prototype', 'a second text'];

/** A copy of a fixture folder, with some files replaced (text, or a function of the old text). */
function folder(name: string, edits: Record<string, string | ((text: string) => string)> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'attnkit-untrusted-'));
  cpSync(fixture(name), dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    writeFileSync(join(dir, file), typeof edit === 'string' ? edit : edit(readFileSync(join(dir, file), 'utf8')));
  }
  return dir;
}
/** `"key": value,` put first in the file's outer JSON object (as text: a JS literal would set the prototype instead). */
const prepend = (entry: string) => (text: string) => text.replace('{', `{${entry},`);
/** The same edit inside the object that follows `"key":` in the file. */
const inside = (key: string, entry: string) => (text: string) => text.replace(new RegExp(`("${key}"\\s*:\\s*)\\{`), `$1{${entry},`);
const polluted = () => ({} as Record<string, unknown>)['polluted'] === undefined && ({} as Record<string, unknown>)['pad_token'] === undefined;

async function embed(model: SentenceEncoder, options: { prompt?: string } = {}): Promise<Float32Array> {
  const out = await model.encode(texts, options);
  const values = (await out.data()) as Float32Array;
  out.dispose();
  return values;
}
const equal = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((v, i) => Object.is(v, b[i]));

/** Embeddings of a hostile copy of `name` against the untouched folder; `check` sees the loaded model too. */
async function sameAsOriginal(name: string, edits: Record<string, string | ((text: string) => string)>, check: (model: SentenceEncoder) => boolean = () => true): Promise<boolean> {
  const [original, hostile] = [await loadSentenceEncoder(fixture(name)), await loadSentenceEncoder(folder(name, edits))];
  try {
    return check(hostile) && equal(await embed(original), await embed(hostile)) && polluted();
  } finally {
    [original, hostile].forEach((m) => m.dispose());
  }
}

/** A tokenizer.json of the fixture with `change` applied to its parsed JSON. */
function tokenizerJson(change: (json: Record<string, unknown>) => void): Record<string, unknown> {
  const json = JSON.parse(readFileSync(join(fixture('bert-mean-normalize'), 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  change(json);
  return json;
}
const withPattern = (where: 'pre_tokenizer' | 'normalizer' | 'decoder', pattern: string) => tokenizerJson((json) => {
  const step = { type: where === 'pre_tokenizer' ? 'Split' : 'Replace', pattern: { Regex: pattern }, ...(where === 'pre_tokenizer' ? { behavior: 'Isolated', invert: false } : { content: ' ' }) };
  json[where] = { type: 'Sequence', [where === 'pre_tokenizer' ? 'pretokenizers' : where === 'normalizer' ? 'normalizers' : 'decoders']: [step] };
});
const loadWith = (json: Record<string, unknown>) => loadTokenizer({ files: { 'tokenizer.json': JSON.stringify(json) } });

// A local web server: a sentence folder, and the hostile answers a model URL can give.
let server: Promise<string> | undefined;
function serve(): Promise<string> {
  server ??= new Promise((resolve) => {
    const root = fixture('bert-mean-normalize');
    const escaping = folder('bert-mean-normalize', { 'modules.json': (t) => t.replace('"1_Pooling"', '"../../secret"') });
    const http: Server = createServer((request, response) => {
      const url = request.url ?? '/';
      const redirect = (to: string) => response.writeHead(302, { location: to }).end();
      if (url === '/to-file/config.json') return redirect('file:///etc/passwd');
      if (url === '/to-data/config.json') return redirect('data:application/json,{"hidden_size":1}');
      if (url === '/loop/config.json') return redirect('/loop/config.json');
      if (url === '/fails/config.json') return response.writeHead(500).end();
      if (url === '/secret/config.json') return response.writeHead(200).end('{"leaked":true}');
      const [, base, ...rest] = url.split('/');
      const dir = base === 'st' ? root : base === 'escaping' ? escaping : undefined;
      try {
        if (dir === undefined) throw new Error('no such folder');
        const body = readFileSync(join(dir, ...rest.map(decodeURIComponent))); // before the headers: a missing file answers 404
        return response.writeHead(200).end(body);
      } catch {
        return response.writeHead(404).end();
      }
    });
    http.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(http.address() as { port: number }).port}/`));
    http.unref();
  });
  return server;
}
async function unreachable(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}/st/`;
}

function linkedFolders(): { out: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'attnkit-links-'));
  const outside = mkdtempSync(join(tmpdir(), 'attnkit-outside-'));
  cpSync(join(fixture('bert-mean-normalize'), '1_Pooling'), outside, { recursive: true });
  const out = join(root, 'out');
  cpSync(fixture('bert-mean-normalize'), out, { recursive: true, filter: (source) => !source.endsWith('1_Pooling') });
  symlinkSync(outside, join(out, '1_Pooling'));
  // the Hugging Face cache: snapshot files are links to blobs outside the snapshot folder
  const cache = join(root, 'snapshots', 'abc');
  mkdirSync(join(root, 'blobs'));
  cpSync(fixture('bert-mean-normalize'), cache, { recursive: true });
  for (const file of ['config.json', 'model.safetensors', 'tokenizer.json', '1_Pooling/config.json']) {
    const blob = join(root, 'blobs', file.replace('/', '-'));
    cpSync(join(cache, file), blob);
    rmSync(join(cache, file));
    symlinkSync(blob, join(cache, file));
  }
  return { out, cache };
}

const LLAMA3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** Model files made by someone else: prototype keys in every JSON the loaders read, paths out of the folder, hostile servers, regex bombs. */
export const untrustedCases: CatalogueCase[] = [
  // prototype-pollution keys
  safely(U, '"__proto__", "constructor" and "prototype" objects in config.json', 'plain keys: the model is the same, no object is polluted', () => sameAsOriginal('bert-mean-normalize', { 'config.json': prepend('"__proto__":{"hidden_size":1,"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}') }), (v) => v === true),
  rejects(U, 'config.json a symbolic link to /dev/zero (an endless file)', L, /config\.json is not a regular file \(a device, pipe or socket\); a model file must be one\.$/, () => {
    const linked = folder('bert-cls');
    rmSync(join(linked, 'config.json'));
    symlinkSync('/dev/zero', join(linked, 'config.json'));
    return loadEncoder(linked);
  }),
  rejects(U, 'model.safetensors that is a folder', L, /model\.safetensors is not a regular file \(a folder\)/, () => {
    const odd = folder('bert-cls');
    rmSync(join(odd, 'model.safetensors'));
    mkdirSync(join(odd, 'model.safetensors'));
    return loadEncoder(odd);
  }),
  rejects(U, 'tokenizer.json vocabulary mapping "__proto__" to an object', L, /^loadTokenizer: the tokenizer cannot be built: Tokenizer: 'tokenizer\.json model\.vocab' must be integer ids in \[0, 2147483647\] for every token; received 1 other values: "__proto__": \{"x":1\}\.$/, () => loadTokenizer(folder('bert-mean-normalize', { 'tokenizer.json': inside('vocab', '"__proto__":{"x":1}') }))),
  rejects(U, 'tokenizer.json vocabulary mapping "constructor" to an object', L, /received 1 other values: "constructor": \{"y":2\}\.$/, () => loadTokenizer(folder('bert-mean-normalize', { 'tokenizer.json': inside('vocab', '"constructor":{"y":2}') }))),
  safely(U, 'tokenizer.json with "constructor", "__proto__" and "toString" as real tokens', 'they are ordinary tokens with their own ids', () => loadTokenizer(folder('bert-mean-normalize', { 'tokenizer.json': inside('vocab', '"constructor":1000,"__proto__":1001,"tostring":1002') })).then((t) => [t.tokenToId('constructor'), t.tokenToId('__proto__'), t.tokenToId('tostring'), t.tokenToId('valueOf')]), (v) => JSON.stringify(v) === '[1000,1001,1002,null]'),
  rejects(U, 'tokenizer.json added token with an object id', L, /'tokenizer\.json added_tokens' must be objects with an integer id in \[0, 2³¹\) and a string content; received 1 other entries: \[0\] \{"id":\{"__proto__":1\}/, () => loadWith(tokenizerJson((j) => (j['added_tokens'] = JSON.parse('[{"id":{"__proto__":1},"content":"[X]"}]'))))),
  rejects(U, 'tokenizer.json model of type "constructor"', L, /'tokenizer\.json model\.type' must be one of "WordPiece", "BPE", "Unigram", "WordLevel"; received "constructor"\.$/, () => loadWith(tokenizerJson((j) => ((j['model'] as Record<string, unknown>)['type'] = 'constructor')))),
  safely(U, 'tokenizer.json with a "__proto__" key holding another model', 'a plain key: the file\'s own model is used', () => sameAsOriginal('bert-mean-normalize', { 'tokenizer.json': prepend('"__proto__":{"model":{"type":"WordLevel","vocab":{"x":0}}}') }), (v) => v === true),
  safely(U, 'tokenizer_config.json with "__proto__" naming another pad token and length', 'a plain key: padding and model_max_length are the file\'s own', () => sameAsOriginal('bert-mean-normalize', { 'tokenizer_config.json': prepend('"__proto__":{"pad_token":"[UNK]","model_max_length":2}') }, (m) => m.maxSeqLength === 16), (v) => v === true),
  safely(U, 'modules.json entry whose "__proto__" holds a path out of the folder', 'a plain key: the entry\'s own path is used', () => sameAsOriginal('bert-mean-normalize', { 'modules.json': (t) => t.replace('"idx": 1,', '"__proto__": {"path": "../../etc"}, "idx": 1,') }), (v) => v === true),
  safely(U, 'prompts named "__proto__" and "constructor", the default being "constructor"', 'ordinary prompts: "constructor" is prepended like any other', async () => {
    const model = await loadSentenceEncoder(folder('bert-mean-normalize', { 'config_sentence_transformers.json': (t) => t.replace('"default_prompt_name": null', '"default_prompt_name": "constructor"').replace('"document": ""', '"__proto__": "evil: ", "constructor": "made: ", "document": ""') }));
    try {
      return equal(await embed(model), await embed(model, { prompt: 'made: ' })) && polluted();
    } finally {
      model.dispose();
    }
  }, (v) => v === true),
  rejects(U, 'encode with promptName "toString" (inherited by every object, not a prompt)', 'InvalidArgumentError', "SentenceEncoder.encode: 'promptName' must be one of the folder's prompts ('document', 'query'); received string 'toString'.", async () => {
    const model = await loadSentenceEncoder(fixture('bert-mean-normalize'));
    try {
      return await model.encode(['a'], { promptName: 'toString' });
    } finally {
      model.dispose();
    }
  }),
  safely(U, '1_Pooling/config.json with "__proto__" switching on max pooling', 'a plain key: the pooling is the file\'s own', () => sameAsOriginal('bert-mean-normalize', { '1_Pooling/config.json': prepend('"__proto__":{"pooling_mode_max_tokens":true,"pooling_mode_mean_tokens":false}') }), (v) => v === true),
  safely(U, 'sentence_bert_config.json with "__proto__" setting max_seq_length 2', 'a plain key: max_seq_length is the file\'s own', () => sameAsOriginal('bert-mean-normalize', { 'sentence_bert_config.json': prepend('"__proto__":{"max_seq_length":2,"do_lower_case":false}') }, (m) => m.maxSeqLength === 16), (v) => v === true),
  safely(U, 'a Dense config.json with "__proto__" changing its sizes and activation', 'a plain key: the Dense module is the file\'s own', () => sameAsOriginal('bert-dense', { '2_Dense/config.json': prepend('"__proto__":{"out_features":3,"activation_function":"torch.nn.modules.activation.ReLU"}') }), (v) => v === true),
  safely(U, 'safetensors tensors named "__proto__", "constructor" and "toString"', 'written and read back under their names', () => {
    const values = Float32Array.of(1, 2);
    const written = writeSafetensors(Object.fromEntries(['__proto__', 'constructor', 'toString'].map((n) => [n, { shape: [2], values }]))); // own keys, as a parsed file has them
    return [...readSafetensors(written).tensors.keys()];
  }, (v) => JSON.stringify(v) === '["__proto__","constructor","toString"]' && polluted()),
  rejects(U, 'safetensors tensor with dtype "constructor"', 'SafetensorsError', 'safetensors: tensor \'a\' has dtype "constructor"; attnkit reads F32, F16, BF16, I32, I64, I8.', () => {
    const json = new TextEncoder().encode('{"a":{"dtype":"constructor","shape":[1],"data_offsets":[0,4]}}');
    const bytes = new Uint8Array(8 + json.length + 4);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(json.length), true);
    bytes.set(json, 8);
    return readSafetensors(bytes);
  }),
  safely(U, 'safetensors __metadata__ with a "__proto__" entry', 'a plain metadata key; no object is polluted', () => readSafetensors(writeSafetensors({ a: { shape: [1], values: Float32Array.of(1) } }, JSON.parse('{"__proto__":"x","format":"pt"}') as Record<string, string>)).metadata, (v) => Object.keys(v as object).sort().join() === '__proto__,format' && polluted()),
  rejects(U, 'an nn.MultiheadAttention state dict with an extra "constructor" tensor', 'InvalidArgumentError', /^MultiHeadAttention\.fromTorchStateDict: 'stateDict' must be the weights of nn\.MultiheadAttention\(embed_dim=4, num_heads=2\); received unexpected constructor \(attnkit has no such weight/, () => {
    const t = (shape: number[]) => ({ shape, values: new Float32Array(shape.reduce((a, b) => a * b, 1)) });
    const bytes = writeSafetensors({ in_proj_weight: t([12, 4]), in_proj_bias: t([12]), 'out_proj.weight': t([4, 4]), 'out_proj.bias': t([4]), constructor: t([1]) });
    return fromTorchStateDict(bytes, { numHeads: 2 });
  }),
  // paths out of the folder
  ...['../outside', '/etc', 'file:///etc/passwd', 'https://evil.example/m', 'a/../../b', '..\\..\\x', '%2e%2e/x'].map((path) =>
    rejects(U, `modules.json module path ${JSON.stringify(path)}`, L, `subfolderSource: module path ${JSON.stringify(path)} must be a relative folder inside the model folder (letters, digits, _ . -; no "..", absolute paths or schemes).`, () => loadSentenceEncoder(folder('bert-mean-normalize', { 'modules.json': (t) => t.replace('"1_Pooling"', JSON.stringify(path)) })))),
  rejects(U, 'a module folder that is a symbolic link out of the model folder', L, /^subfolderSource: module path "1_Pooling" is a symbolic link to .*attnkit-outside-[^,]*, outside the model folder .*out; a folder's modules must be inside it\.$/, () => loadSentenceEncoder(linkedFolders().out)),
  safely(U, 'files that are symbolic links to blobs elsewhere (the Hugging Face cache layout)', 'followed: the folder loads and embeds as the original', async () => {
    const [original, cached] = [await loadSentenceEncoder(fixture('bert-mean-normalize')), await loadSentenceEncoder(linkedFolders().cache)];
    try {
      return equal(await embed(original), await embed(cached));
    } finally {
      [original, cached].forEach((m) => m.dispose());
    }
  }, (v) => v === true),
  // hostile servers
  safely(U, 'a sentence folder served over HTTP (the baseline for the cases below)', 'loads and embeds as the local folder', async () => {
    const [local, remote] = [await loadSentenceEncoder(fixture('bert-mean-normalize')), await loadSentenceEncoder(`${await serve()}st/`)];
    try {
      return equal(await embed(local), await embed(remote));
    } finally {
      [local, remote].forEach((m) => m.dispose());
    }
  }, (v) => v === true),
  rejects(U, 'a served modules.json whose module path climbs out of the base URL', L, 'subfolderSource: module path "../../secret" must be a relative folder inside the model folder (letters, digits, _ . -; no "..", absolute paths or schemes).', async () => loadSentenceEncoder(`${await serve()}escaping/`)),
  rejects(U, 'config.json URL that redirects to file:///etc/passwd', L, /^loadEncoder: config\.json: http:\/\/127\.0\.0\.1:\d+\/to-file\/config\.json redirects to file:\/\/\/etc\/passwd; only http\(s\) redirects are followed\.$/, async () => loadEncoder(`${await serve()}to-file/`)),
  rejects(U, 'config.json URL that redirects to a data: URL', L, /^loadEncoder: config\.json: http:\/\/127\.0\.0\.1:\d+\/to-data\/config\.json redirects to data:application\/json,\{"hidden_size":1\}; only http\(s\) redirects are followed\.$/, async () => loadEncoder(`${await serve()}to-data/`)),
  rejects(U, 'config.json URL that redirects to itself', L, /^loadEncoder: config\.json: more than 10 redirects from http:\/\/127\.0\.0\.1:\d+\/loop\/config\.json \(last: http:\/\/127\.0\.0\.1:\d+\/loop\/config\.json\)\.$/, async () => loadEncoder(`${await serve()}loop/`)),
  rejects(U, 'config.json URL answering HTTP 500', L, /^loadEncoder: config\.json: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/fails\/config\.json\.$/, async () => loadEncoder(`${await serve()}fails/`)),
  rejects(U, 'a model URL on a server that is down', L, /^loadSentenceEncoder: modules\.json: cannot fetch http:\/\/127\.0\.0\.1:\d+\/st\/modules\.json \(fetch failed: ECONNREFUSED; a network error, or a redirect the runtime refused\)\.$/, async () => loadSentenceEncoder(await unreachable())),
  // regular expressions that backtrack catastrophically
  ...([
    ['pre_tokenizer', '(a+)+$', 'nested quantifier'],
    ['pre_tokenizer', '(.*a){20}', 'nested quantifier'],
    ['normalizer', '(a|a)*b', 'quantified alternation'],
    ['decoder', '(\\w+\\s?)+$', 'nested quantifier'],
    ['pre_tokenizer', 'a*a*a*a*a*a*b', 'unbounded quantifiers'],
    ['normalizer', '((a)\\2)+', 'backreference'],
    ['pre_tokenizer', '(?:a?a?){16}x', 'optional part in a repeated group'],
    ['normalizer', 'a{0,99}a{0,99}a{0,99}b', 'unbounded quantifiers: more than two in a row'],
    ['decoder', '(a{1,50}){1,50}', 'nested quantifier'],
  ] as const).map(([where, pattern, reason]) =>
    rejects(U, `tokenizer.json ${where} pattern ${pattern}`, L, new RegExp(`^loadTokenizer: the tokenizer cannot be built: Tokenizer: 'tokenizer\\.json ${where} pattern' must be a regular expression that cannot backtrack catastrophically; received /.*/: ${reason}`), () => loadWith(withPattern(where, pattern)))),
  safely(U, 'the Llama 3 split pattern on 100 000 adversarial characters', 'accepted, and encoding stays under a second', () => {
    const tokenizer = new Tokenizer(withPattern('pre_tokenizer', LLAMA3));
    const started = performance.now();
    for (const text of [' '.repeat(25_000), 'a'.repeat(25_000), '!'.repeat(25_000), 'a '.repeat(12_500)]) tokenizer.encode([text], { truncation: false });
    return performance.now() - started;
  }, (ms) => (ms as number) < 1000),
];
