import { median } from '../stats.js';
import type { CorpusCalling, CorpusSpec } from './corpus-engine.js';
import type { CorpusRoundResult, CorpusRun } from './corpus-run.js';

type Where = 'Chromium' | 'Node';

interface Row { where: Where; spec: CorpusSpec; results: CorpusRoundResult[]; error?: string; textsPerSecond: number[] }

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f6 = (x: number) => (Number.isFinite(x) ? x.toFixed(6) : '–');
const range = (xs: number[], f: (x: number) => string) => (xs.length > 1 ? ` (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : '');

const CALLING: Record<CorpusCalling, string> = {
  batches: 'per 32, input order',
  sorted: 'per 32, sorted by token count by the caller',
  encode: 'one `encode(texts, { batchSize: 32 })` (sorts by token count itself)',
};

/** texts/s of one round: the corpus over the median of its timed passes. */
const rate = (r: CorpusRoundResult, texts: number) => (texts * 1000) / median(r.passMs);

function rowsOf(corpus: CorpusRun): Row[] {
  return (['Chromium', 'Node'] as const).flatMap((where) =>
    corpus.groups[where].flatMap((group) =>
      group.specs.map((spec) => {
        const all = corpus.results.filter((r) => r.where === where && r.id === spec.id);
        const ok = all.filter((r) => r.error === undefined && r.passMs.length > 0);
        return { where, spec, results: ok, ...(ok.length === 0 && all[0]?.error ? { error: all[0].error } : {}), textsPerSecond: ok.map((r) => rate(r, corpus.texts)) };
      }),
    ),
  );
}

/** Median over rounds of attnkit's texts/s ÷ the peer's, both from the same round. */
function ratio(corpus: CorpusRun, rows: Row[], where: Where, id: string, peerId: string): number {
  const row = rows.find((r) => r.where === where && r.spec.id === id);
  const peer = rows.find((r) => r.where === where && r.spec.id === peerId);
  if (row === undefined || peer === undefined) return NaN;
  const per = row.results.flatMap((r) => {
    const other = peer.results.find((p) => p.round === r.round);
    return other === undefined ? [] : [rate(r, corpus.texts) / rate(other, corpus.texts)];
  });
  return per.length === 0 ? NaN : median(per);
}

/** The ratios the corpus section reports, per place: [attnkit engine, transformers.js engine, what it reads as]. */
function comparisons(groups: CorpusRun['groups'], where: Where): [string, string, string][] {
  const specs = groups[where].flatMap((g) => g.specs);
  const find = (library: CorpusSpec['library'], precision: CorpusSpec['precision'], calling: CorpusCalling) => specs.find((s) => s.library === library && s.precision === precision && s.calling === calling)?.id;
  const pairs: [string | undefined, string | undefined, string][] = [
    [find('attnkit', 'int8', 'batches'), find('transformers.js', 'q8', 'batches'), 'attnkit int8 ÷ transformers.js q8, both per 32 in input order (as called)'],
    [find('attnkit', 'int8', 'encode'), find('transformers.js', 'q8', 'batches'), 'attnkit int8 `encode(texts, { batchSize: 32 })` ÷ transformers.js q8 as called'],
    [find('attnkit', 'int8', 'batches'), find('transformers.js', 'q8', 'sorted'), 'attnkit int8 per 32 in input order ÷ transformers.js q8 sorted'],
    [find('attnkit', 'int8', 'encode'), find('transformers.js', 'q8', 'sorted'), 'attnkit int8 `encode(texts, { batchSize: 32 })` ÷ transformers.js q8 sorted (both sorted)'],
    [find('attnkit', 'fp32', 'batches'), find('transformers.js', 'fp32', 'batches'), 'attnkit fp32 ÷ transformers.js fp32, both per 32 in input order'],
    [find('attnkit', 'fp32', 'encode'), find('transformers.js', 'fp32', 'batches'), 'attnkit fp32 `encode(texts, { batchSize: 32 })` ÷ transformers.js fp32 as called'],
  ];
  return pairs.filter((p): p is [string, string, string] => p[0] !== undefined && p[1] !== undefined);
}

function label(spec: CorpusSpec): string {
  return `${spec.library} ${spec.precision} ${spec.backend === 'onnxruntime-node' ? 'onnxruntime-node' : 'wasm'}`;
}

/** The "Corpus" section of docs/benchmarks-peer.md: engine table, ratios, targets. */
export function corpusSection(corpus: CorpusRun, rounds: number): string[] {
  const rows = rowsOf(corpus);
  const lines = [
    '',
    '## Corpus: 2 000 WordNet texts of mixed lengths, batches of 32',
    '',
    `Texts: ${corpus.selection.description}. ${corpus.texts} texts, ${corpus.realTokens} tokens in all (no padding), truncation at ${corpus.length} (none is that long). ` +
      'Every engine embeds all of them 32 at a time with mean pooling and normalize, the way its users call it: transformers.js `extractor(batch, { pooling: \'mean\', normalize: true })` per 32 texts in input order ("as called"), or after the caller sorted the texts by token count (`extractor.tokenizer.encode(text).length`, longest first; the sort and putting the embeddings back in input order are timed too); ' +
      'attnkit `encode(batch, { normalize: true })` per 32 texts in input order, or one `encode(texts, { normalize: true, batchSize: 32 })`, whose own batching sorts the texts by characters (longest first, as sentence-transformers) and returns them in input order.',
    '',
    `Method: ${rounds} round${rounds === 1 ? '' : 's'}, the groups' order rotated each round; a group (one library, precision and backend) is one fresh Chromium or Node process that loads the model once, warms up on the first ${corpus.warmup} texts with its first calling (load + warm-up: "first pass"), then runs ${corpus.runs} timed pass${corpus.runs === 1 ? '' : 'es'} of each of its callings, alternated. ` +
      'texts/s = 2 000 ÷ the median timed pass of a round; the table gives the median over rounds and the range. Tokens computed = the sum over the batches of rows × padded length (attnkit: counted on the batches `encode` tokenized; transformers.js: its tokenizer on the same batches with `padding: true`). ' +
      'Cosine: each text\'s embedding against transformers\' BertModel in float64 on Python\'s ids (scripts/make_corpus_reference.py), min and mean over the 2 000 texts; "ids ≠ Python": texts whose ids from the engine\'s tokenizer differ. Ratios: attnkit texts/s ÷ transformers.js texts/s within a round, median over rounds.',
    '',
    '| where | engine | calling | threads | texts/s (range over rounds) | first pass: load + warm-up (s) | tokens computed (× real) | cosine vs float64 (min) | cosine (mean) | ids ≠ Python |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    if (row.error !== undefined || row.results.length === 0) {
      lines.push(`| ${row.where} | ${label(row.spec)} | ${CALLING[row.spec.calling]} | ${row.spec.threads} | – | – | – | – | – | – |`);
      continue;
    }
    const first = row.results.map((r) => r.firstPassMs).filter((x): x is number => x !== undefined).map((x) => x / 1000);
    const tokens = row.results[0]!.tokens;
    const idsDiffer = row.results[0]!.idsDiffer;
    lines.push(`| ${row.where} | ${label(row.spec)} | ${CALLING[row.spec.calling]} | ${row.spec.threads} / ${row.results[0]!.threads} | ${f0(median(row.textsPerSecond))}${range(row.textsPerSecond, f0)} | ${first.length > 0 ? `${f1(median(first))}${range(first, f1)}` : 'with the row above'} | ${f0(tokens)} (${f2(tokens / corpus.realTokens)} ×) | ${f6(Math.min(...row.results.map((r) => r.minCosine)))} | ${f6(median(row.results.map((r) => r.meanCosine)))} | ${idsDiffer ?? '–'} |`);
  }
  const notRun = rows.filter((r) => r.error !== undefined).map((r) => `- ${r.where}, ${r.spec.id}: ${r.error}`);
  if (notRun.length > 0) lines.push('', 'Not run:', '', ...notRun);

  lines.push('', '### Corpus ratios (attnkit texts/s ÷ transformers.js texts/s, same round)', '', '| where | comparison | ratio |', '| --- | --- | --- |');
  for (const where of ['Chromium', 'Node'] as const) {
    for (const [id, peer, text] of comparisons(corpus.groups, where)) lines.push(`| ${where} | ${text} | ${f2(ratio(corpus, rows, where, id, peer))} × |`);
  }

  lines.push('', '### Corpus targets', '', '| target | measured | met |', '| --- | --- | --- |');
  for (const where of ['Chromium', 'Node'] as const) {
    const specs = corpus.groups[where].flatMap((g) => g.specs);
    const threads = specs[0]?.threads;
    const id = (library: CorpusSpec['library'], precision: CorpusSpec['precision'], calling: CorpusCalling) => specs.find((s) => s.library === library && s.precision === precision && s.calling === calling)?.id;
    const target = (text: string, a: string | undefined, b: string | undefined, at: number) => {
      const r = a === undefined || b === undefined ? NaN : ratio(corpus, rows, where, a, b);
      const met = !Number.isFinite(r) ? '–' : where === 'Node' ? 'no target: onnxruntime-node is native (the native gap, reported)' : r >= at ? 'yes' : 'no';
      lines.push(`| ${where}, ${threads} threads: ${text}${where === 'Node' ? ' (onnxruntime-node)' : ''} | ${Number.isFinite(r) ? `${f2(r)} ×` : 'not measured'} | ${met} |`);
    };
    if (specs.length === 0) continue;
    // each library as its users call it: attnkit's encode on the corpus, transformers.js' pipeline per batch (and sorted by a careful user)
    target('attnkit int8 `encode(texts, { batchSize: 32 })` ≥ 3 × transformers.js q8 as called', id('attnkit', 'int8', 'encode'), id('transformers.js', 'q8', 'batches'), 3);
    target('attnkit int8 `encode(texts, { batchSize: 32 })` ≥ 1.3 × transformers.js q8 sorted', id('attnkit', 'int8', 'encode'), id('transformers.js', 'q8', 'sorted'), 1.3);
  }
  return [...lines, ''];
}
