import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxDifference } from '@attnkit/backends';
import { loadSentenceEncoder, semanticSearch } from '@attnkit/sentence';
import { loadTokenizer } from '@attnkit/tokenizers';
import { browserTestPlan } from '@attnkit/test-utils/browser-test-plan';
import { findChromium } from '@attnkit/test-utils/chromium';
import { embeddedModelFolder, parseDemoArgs, runDemo } from '@attnkit/cli';
import type { DemoState } from './demo-state.js';
import { CHROMIUM_ARGS, clickAndWait, demo, distinctColours, hoverCell, pickBackend, shownNumber, waitForRun } from './demo-page.test-helper.js';

const SENTENCES = ['The cat sat on the mat.', 'A cat was sitting on a mat.', 'Stock markets fell sharply today.']; // the page's defaults
const TOLERANCE = { cpu: 1e-4, wasm: 1e-4, webgl: 1e-3 };
const plan = browserTestPlan(findChromium(), process.env);
if (plan.action === 'fail') throw new Error(plan.message);
const root = join(import.meta.dirname, '..', '..');
let server: PreviewServer;
let browser: Browser;
let reference: number[][];
const agreement: Record<string, number> = {};
const firstHeatmapMs: Record<string, number> = {};
const panels: Record<string, string> = {};
/**
 * The backend the search and generation panels are tried on after wasm: cpu in `npm test`; webgl
 * (shaders compiled through SwiftShader: 10 s more or so) with `pnpm --filter @attnkit/demo test:panels-webgl`.
 */
const SECOND_BACKEND = (process.env['ATTNKIT_DEMO_PANEL_BACKEND'] ?? 'cpu') as 'cpu' | 'webgl';
if (!['cpu', 'webgl'].includes(SECOND_BACKEND)) throw new Error(`ATTNKIT_DEMO_PANEL_BACKEND: expected cpu or webgl, received ${SECOND_BACKEND}`);
/** The decoder the generation panel loads by default (tooling/reference/make_decoder_fixtures.py: random weights) and transformers' greedy ids for its prompts. */
const DECODER = join(root, '..', '..', 'tooling', 'reference', 'fixtures', 'decoders', 'qwen3');
const DECODER_FIXTURE = (JSON.parse(readFileSync(join(DECODER, '..', '..', 'decoders.json'), 'utf8')) as { cases: Record<string, { texts: string[]; greedy: { single: number[][] } }> }).cases['qwen3']!;

/**
 * A stand-in for the Hugging Face Hub: the embedded model's files at /acme/attnkit-tiny-bert/resolve/main/
 * (model.safetensors sent slowly, in parts, so a progress bar can be seen moving), an HTML page (200)
 * for every path under /acme/html-page/, a 404 elsewhere; CORS and CORP headers as the hub sends them.
 */
function mockHub(): Promise<{ url: string; server: Server; served: Map<string, number>; missing: Map<string, number> }> {
  const folder = embeddedModelFolder();
  const files = new Set(readdirSync(folder));
  const served = new Map<string, number>(); // model files answered 200, by path
  const missing = new Map<string, number>(); // optional files the loader asked for, answered 404
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    const cors = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    const prefix = '/acme/attnkit-tiny-bert/resolve/main/';
    const name = path.startsWith(prefix) ? decodeURIComponent(path.slice(prefix.length)) : '';
    if (files.has(name)) {
      served.set(name, (served.get(name) ?? 0) + 1);
      const bytes = readFileSync(join(folder, name));
      response.writeHead(200, { ...cors, 'content-type': name.endsWith('.json') ? 'application/json' : 'application/octet-stream', 'content-length': `${bytes.length}` });
      const parts = name === 'model.safetensors' ? 16 : 1;
      const step = Math.ceil(bytes.length / parts);
      const send = (i: number) => {
        if (i >= parts) return void response.end();
        response.write(bytes.subarray(i * step, (i + 1) * step));
        setTimeout(() => send(i + 1), 40);
      };
      return send(0);
    }
    if (path.startsWith('/acme/html-page/')) return void response.writeHead(200, { ...cors, 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body><h1>Welcome</h1></body></html>');
    missing.set(path, (missing.get(path) ?? 0) + 1);
    response.writeHead(404, { ...cors, 'content-type': 'text/plain' }).end('Entry not found');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, served, missing })));
}
let hub: Awaited<ReturnType<typeof mockHub>>;

/** Opens the page; it loads the embedded model and embeds the default sentences with no click. */
async function openPage(query: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1100 } });
  await page.goto(`${server.resolvedUrls!.local[0]}?${query}`);
  await waitForRun(page, 0);
  return page;
}

describe.skipIf(plan.action === 'skip')('the demo web page in Chromium (built with Vite, served cross-origin isolated)', () => {
  beforeAll(async () => {
    await build({ root, logLevel: 'silent' });
    server = await preview({ root, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
    hub = await mockHub();
    browser = await chromium.launch({
      ...(plan.action === 'run' ? { executablePath: plan.executablePath } : {}),
      args: CHROMIUM_ARGS,
    });
    reference = (await runDemo(parseDemoArgs(['--backend', 'cpu', '--compare', '', ...SENTENCES.flatMap((s) => ['--text', s])]))).embeddings;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    hub?.server.closeAllConnections();
    hub?.server.close();
    console.log(`page embeddings vs Node cpu (max abs diff): ${JSON.stringify(agreement)}`);
    console.log(`search and generation panels: ${JSON.stringify(panels)}`);
    console.log(`time to first heatmap, ms since navigation (embedded model loaded and sentences embedded, no click): ${JSON.stringify(firstHeatmapMs)}`);
  });

  it.each(['cpu', 'wasm', 'webgl'] as const)('%s: first paint embeds the default sentences with no click, equal to Node cpu; Encode re-runs after an edit', async (backend) => {
    const page = await openPage(`backend=${backend}`);
    const state = await demo(page);
    firstHeatmapMs[backend] = Math.round(state.firstHeatmapMs!);
    agreement[backend] = maxDifference(state.embeddings!.flat(), reference.flat()).maxAbsDiff;
    expect(agreement[backend]).toBeLessThanOrEqual(TOLERANCE[backend]);
    expect(await page.locator('#tokens li').count()).toBe(3);
    expect(await page.textContent('#tokens li')).toBe('[CLS] the cat sat on the mat . [SEP]');
    expect(await distinctColours(page, '#similarity')).toBeGreaterThan(20);
    expect(await page.locator('#attention canvas').count()).toBe(2 * 4); // layers × heads of the embedded model
    expect(await distinctColours(page, '#attention canvas')).toBeGreaterThan(20);
    expect(await page.textContent('#capabilities')).toContain(`${backend}: float32`);
    expect(await page.textContent('#timings')).toMatch(/first forward \(cold\): \d+ ms · warm median: [\d.]+ ms/);
    // an edit, then Encode: the results follow the new sentences
    await page.fill('#texts', `${SENTENCES[2]}\n${SENTENCES[0]}`);
    await page.click('#run');
    await waitForRun(page, state.runs);
    const edited = await demo(page);
    expect(edited.embeddings).toHaveLength(2);
    expect(maxDifference([...edited.embeddings![0]!, ...edited.embeddings![1]!], [...reference[2]!, ...reference[0]!]).maxAbsDiff).toBeLessThanOrEqual(TOLERANCE[backend]);
    expect(await page.locator('#tokens li').count()).toBe(2);
    expect(edited.stale).toBe(false);
    await page.close();
  }, 120_000);

  it('hovering a heatmap cell shows its labels and the value the page computed (similarity and attention)', async () => {
    const page = await openPage('backend=wasm');
    const state = await demo(page);
    const similarityText = await hoverCell(page, '#similarity', 1, 2);
    expect(similarityText).toMatch(/^sentence 2 “A cat was sitting on a mat\.” × sentence 3 “Stock markets fell sharply today\.”: cosine -?\d+\.\d{4}$/);
    expect(shownNumber(similarityText)).toBe(Number(state.similarity![1]![2]!.toFixed(4)));
    expect(Number(await page.getAttribute('#tooltip', 'data-value'))).toBe(state.similarity![1]![2]);
    const tokens = state.tokens![0]!;
    const attentionText = await hoverCell(page, '#attention canvas[data-layer="1"][data-head="2"]', 2, 3);
    expect(attentionText).toBe(`layer 2, head 3: “${tokens[2]}” (token 3) attends to “${tokens[3]}” (token 4): ${state.attentions![1]![2]![2]![3]!.toFixed(4)}`);
    expect(shownNumber(attentionText)).toBeCloseTo(state.attentions![1]![2]![2]![3]!, 4);
    await page.mouse.move(5, 5); // off the heatmaps: the tooltip goes
    await page.waitForSelector('#tooltip', { state: 'hidden' });
    await page.close();
  }, 120_000);

  it('an input longer than the model reads is marked "truncated to N of M tokens" next to it', async () => {
    const long = `${'the cat sat on the mat and '.repeat(30)}then it left.`;
    const total = (await loadTokenizer(embeddedModelFolder())).encode([long], { truncation: false }).tokens[0]!.length;
    expect(total).toBeGreaterThan(128);
    const page = await openPage('backend=wasm');
    expect(await page.locator('.truncated').count()).toBe(0); // the defaults fit
    await page.fill('#texts', `${SENTENCES[0]}\n${long}`);
    const runs = (await demo(page)).runs;
    await page.click('#run');
    await waitForRun(page, runs);
    expect((await demo(page)).truncated).toEqual([{ sentence: 2, kept: 128, total }]);
    expect(await page.locator('#tokens li').nth(0).locator('.truncated').count()).toBe(0);
    expect(await page.locator('#tokens li').nth(1).locator('.truncated').textContent()).toBe(`truncated to 128 of ${total} tokens`);
    expect(await page.isVisible('#tokens li:nth-child(2) .truncated')).toBe(true);
    expect(await page.textContent('#model-status')).toContain('at most 128 tokens');
    await page.close();
  }, 120_000);

  it('compares every backend against cpu; editing the sentences or switching backend clears that table and marks the results stale until the next run', async () => {
    const page = await openPage('backend=wasm');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    // What useBackend('wasm') gives a cross-origin-isolated page: the logical cores the kernel workers (one per core, at most 4) leave, at least 1, at most 8.
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const threads = Math.min(8, Math.max(1, cores - Math.max(1, Math.min(4, cores))));
    expect(await page.textContent('#capabilities')).toContain(`threads ${threads} (cross-origin isolated)`);
    await page.click('#compare');
    await page.waitForFunction(() => (window as unknown as { __attnkitDemo?: DemoState }).__attnkitDemo?.compare !== undefined, null, { timeout: 120_000 });
    const table = (await demo(page)).compare!;
    console.log(`page "Compare backends" table (max abs diff of last_hidden_state vs cpu): ${JSON.stringify(table)}`);
    expect(Object.keys(table).sort()).toEqual(['cpu', 'wasm', 'webgl']); // webgpu needs --enable-unsafe-webgpu, not given here
    for (const diff of Object.values(table)) expect(diff).toBeLessThanOrEqual(1e-3);
    expect(await page.locator('#compare-table tr').count()).toBe(4);
    const shot = process.env['ATTNKIT_UPDATE_DOCS'] === '1' ? join(root, '..', '..', 'docs', 'demo.png') : join(mkdtempSync(join(tmpdir(), 'attnkit-demo-')), 'demo.png');
    await page.screenshot({ path: shot, fullPage: true });
    // an edit: the old agreement table goes, the heatmaps are marked as being for the earlier inputs
    await page.fill('#texts', 'A completely different sentence.\nAnd another one.');
    expect(await page.locator('#compare-table tr').count()).toBe(0);
    expect((await demo(page)).compare).toBeUndefined();
    expect((await demo(page)).stale).toBe(true);
    expect(await page.isVisible('#stale-note')).toBe(true);
    expect(await page.getAttribute('#results', 'class')).toContain('stale');
    let runs = (await demo(page)).runs;
    await page.click('#run');
    await waitForRun(page, runs);
    expect((await demo(page)).stale).toBe(false);
    expect(await page.isVisible('#stale-note')).toBe(false);
    expect(await page.locator('#compare-table tr').count()).toBe(0); // still gone: it was for the earlier sentences
    // a backend switch: the table goes again, and the sentences are embedded on the new backend
    await page.click('#compare');
    await page.waitForFunction(() => (window as unknown as { __attnkitDemo?: DemoState }).__attnkitDemo?.compare !== undefined, null, { timeout: 120_000 });
    runs = (await demo(page)).runs;
    await page.selectOption('#backend', 'cpu');
    expect(await page.locator('#compare-table tr').count()).toBe(0);
    await waitForRun(page, runs);
    const after = await demo(page);
    expect([after.backend, after.stale, after.compare]).toEqual(['cpu', false, undefined]);
    await page.close();
  }, 180_000);

  it('hostile inputs: no text, a model URL that 404s or serves HTML, an unknown backend — each a clear error naming the URL; the old model keeps working, nothing leaks, a good id then loads', async () => {
    const page = await openPage(`backend=nonsense&hub=${encodeURIComponent(hub.url)}`);
    expect(await page.inputValue('#backend')).toBe('wasm'); // an unknown ?backend= falls back to the default
    const tensorsBefore = (await demo(page)).numTensors!;
    expect(tensorsBefore).toBeGreaterThan(0);
    const errorAfter = async (action: () => Promise<void>): Promise<string> => {
      await page.evaluate(() => { delete (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.error; });
      await action();
      await page.waitForFunction(() => (window as unknown as { __attnkitDemo?: DemoState }).__attnkitDemo?.error !== undefined, null, { timeout: 60_000 });
      expect(await page.isVisible('#error')).toBe(true);
      return (await demo(page)).error!;
    };
    const load = async (typed: string) => { await page.fill('#model-url', typed); await page.click('#load-url'); };
    await page.fill('#texts', '  \n \n');
    expect(await errorAfter(() => page.click('#run'))).toBe('Type at least one sentence.');
    const origin = new URL(server.resolvedUrls!.local[0]!).origin;
    expect(await errorAfter(() => load('/models/no-such-model/'))).toBe('loadSentenceEncoder: config.json is missing in /models/no-such-model/; a Hugging Face model folder has config.json and model.safetensors, a sentence-transformers folder also modules.json.');
    expect(await errorAfter(() => load('/'))).toBe(`loadSentenceEncoder: config.json at ${origin}/config.json is an HTML page, not JSON: is ${origin}/ the model folder's URL? A Hugging Face model's files are at https://huggingface.co/<id>/resolve/main/.`);
    expect(await errorAfter(() => load('acme/no-such-model'))).toBe(`loadSentenceEncoder: config.json is missing in ${hub.url}/acme/no-such-model/resolve/main/; a Hugging Face model folder has config.json and model.safetensors, a sentence-transformers folder also modules.json.`);
    expect(await errorAfter(() => load('acme/html-page'))).toBe(`loadSentenceEncoder: config.json at ${hub.url}/acme/html-page/resolve/main/config.json is an HTML page, not JSON: is ${hub.url}/acme/html-page/resolve/main/ the model folder's URL? A Hugging Face model's files are at https://huggingface.co/<id>/resolve/main/.`);
    expect(await page.textContent('#model-status')).toBe('acme/html-page did not load; still using attnkit-tiny-bert (embedded, trained on WordNet).');
    expect((await demo(page)).numTensors).toBe(tensorsBefore); // a failed load leaves no tensor behind
    // the embedded model is still loaded: encoding works
    await page.fill('#texts', SENTENCES.join('\n'));
    let runs = (await demo(page)).runs;
    expect(await page.isDisabled('#run')).toBe(false);
    await page.click('#run');
    await waitForRun(page, runs);
    expect(maxDifference((await demo(page)).embeddings!.flat(), reference.flat()).maxAbsDiff).toBeLessThanOrEqual(TOLERANCE.wasm);
    // a good Hugging Face id: downloaded with a moving progress bar per file, then embedded
    runs = (await demo(page)).runs;
    const started = Date.now();
    await load('acme/attnkit-tiny-bert');
    await page.waitForFunction(() => { const bar = document.querySelector('#files [data-file="model.safetensors"] progress') as HTMLProgressElement | null; return bar !== null && bar.value > 0 && bar.value < bar.max; }, null, { timeout: 60_000 });
    await waitForRun(page, runs);
    const downloadMs = Date.now() - started;
    const loaded = await demo(page);
    expect(loaded.model!.url).toBe(`${hub.url}/acme/attnkit-tiny-bert/resolve/main/`);
    const weights = readFileSync(join(embeddedModelFolder(), 'model.safetensors')).length;
    expect(loaded.progress['model.safetensors']).toEqual({ events: expect.any(Number), loaded: weights, total: weights });
    expect(loaded.progress['model.safetensors']!.events).toBeGreaterThan(1);
    expect(await page.locator('#files li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset['file']))).toEqual(expect.arrayContaining(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']));
    expect(await distinctColours(page, '#similarity')).toBeGreaterThan(20);
    expect(maxDifference(loaded.embeddings!.flat(), reference.flat()).maxAbsDiff).toBeLessThanOrEqual(TOLERANCE.wasm); // the same model, from the hub
    expect(loaded.numTensors).toBe(tensorsBefore); // the embedded model was disposed when this one arrived
    const firstLoad = Object.fromEntries(hub.served);
    expect(firstLoad).toEqual({ 'config.json': 1, 'model.safetensors': 1, 'tokenizer.json': 1, 'tokenizer_config.json': 1 });
    // a reload of the page, the same id again: the files come from the browser's cache, not the hub
    await page.reload();
    await waitForRun(page, 0);
    runs = (await demo(page)).runs;
    const again = Date.now();
    await load('acme/attnkit-tiny-bert');
    await waitForRun(page, runs);
    const cachedMs = Date.now() - again;
    expect(Object.fromEntries(hub.served)).toEqual(firstLoad);
    const reloaded = await demo(page);
    expect(maxDifference(reloaded.embeddings!.flat(), reference.flat()).maxAbsDiff).toBeLessThanOrEqual(TOLERANCE.wasm);
    console.log(`hub model load: downloaded ${Math.round(loaded.model!.loadMs)} ms (click to heatmap ${downloadMs} ms, model.safetensors sent in 16 parts 40 ms apart), from the browser cache after a reload ${Math.round(reloaded.model!.loadMs)} ms (click to heatmap ${cachedMs} ms); 404s the loader asked for (optional files, not cached): ${JSON.stringify(Object.fromEntries(hub.missing))}`);
    await page.close();
  }, 180_000);
  it(`search and generation panels: the top hit of a query that is a document is that document, with the scores of Node's semanticSearch; greedy tokens of the tiny random Qwen3 are transformers'; on wasm and ${SECOND_BACKEND}; Stop aborts; errors are shown; nothing leaks`, async () => {
    const page = await openPage('backend=wasm');
    const tensorsBefore = (await demo(page)).numTensors!;
    // --- semantic search, wasm
    const documents = (await page.inputValue('#corpus')).split('\n');
    expect(documents).toHaveLength(12);
    const query = documents[2]!; // "A dog runs through the park."
    const encoder = await loadSentenceEncoder(embeddedModelFolder()); // Node: the same encoder folder, the same search
    const [corpus, queryEmbedding] = [await encoder.encode(documents), await encoder.encode([query])];
    const expectedHits = (await semanticSearch(queryEmbedding, corpus, { topK: 3 }))[0]!;
    for (const disposable of [corpus, queryEmbedding, encoder]) disposable.dispose();
    expect(expectedHits[0]!.corpusId).toBe(2);
    const scoreDiff = (hits: readonly { score: number }[]) => maxDifference(hits.map((h) => h.score), expectedHits.map((h) => h.score)).maxAbsDiff;
    await page.fill('#query', query);
    await page.fill('#top-k', '3');
    const searched = await clickAndWait(page, '#search');
    expect(searched.error).toBeUndefined();
    const search = searched.search!;
    expect([search.backend, search.documents, search.topK, search.reused]).toEqual(['wasm', 12, 3, false]);
    expect(search.hits[0]).toMatchObject({ corpusId: 2, document: query });
    expect(search.hits[0]!.score).toBeCloseTo(1, 5);
    expect(search.hits.map((h) => h.corpusId)).toEqual(expectedHits.map((h) => h.corpusId));
    expect(scoreDiff(search.hits)).toBeLessThanOrEqual(TOLERANCE.wasm);
    expect(await page.locator('#search-hits li').allTextContents()).toEqual(search.hits.map((h) => `${h.score.toFixed(4)} ${h.document}`));
    expect(await page.textContent('#search-status')).toMatch(/^embedded 12 documents in \d+ ms on wasm · query embedded and searched in [\d.]+ ms$/);
    expect(searched.numTensors).toBe(tensorsBefore + 1); // the corpus embeddings [12, E], kept for the next query
    await page.fill('#query', 'a small cat naps on the couch'); // another query: the corpus embeddings are reused, nothing more is kept
    const again = await clickAndWait(page, '#search');
    expect([again.search!.reused, again.search!.hits.length, again.numTensors]).toEqual([true, 3, tensorsBefore + 1]);
    expect(await page.textContent('#search-status')).toMatch(/^corpus embeddings reused \(12 documents, embedded in \d+ ms\) on wasm · query embedded and searched in [\d.]+ ms$/);
    await page.fill('#corpus', ' \n \n'); // bad input: named in the panel, nothing searched
    const rejected = await clickAndWait(page, '#search');
    expect(rejected.error).toBe('Corpus: no documents. Write one document a line.');
    expect([await page.isVisible('#search-error'), await page.textContent('#search-error'), await page.isVisible('#error')]).toEqual([true, rejected.error, false]);
    await page.fill('#corpus', documents.join('\n'));
    await page.fill('#query', query);
    // --- text generation, wasm: greedy ids as transformers' generate gives them (eos_token_id None; these 12 hold no end-of-sequence id)
    const prompt = DECODER_FIXTURE.texts[3]!; // "The cat sat", the page's default prompt
    const greedy = DECODER_FIXTURE.greedy.single[3]!.slice(0, 12);
    expect(await page.inputValue('#prompt')).toBe(prompt);
    expect(await page.textContent('#generation-panel')).toContain('random weights');
    const loaded = await clickAndWait(page, '#load-lm');
    expect(loaded.error).toBeUndefined();
    expect(loaded.causalLM).toMatchObject({ label: '/models/tiny-random-qwen3/', backend: 'wasm', modelType: 'qwen3' });
    expect(await page.textContent('#lm-status')).toMatch(/^\/models\/tiny-random-qwen3\/: qwen3, 2 layers, hidden 32, vocabulary 320, at most 64 positions — loaded on wasm in \d+ ms$/);
    const tensorsLoaded = loaded.numTensors!;
    expect(tensorsLoaded).toBeGreaterThan(tensorsBefore + 1);
    await page.fill('#max-new-tokens', '12');
    const generated = await clickAndWait(page, '#generate');
    expect(generated.error).toBeUndefined();
    const run = generated.generation!;
    expect([run.backend, run.promptTokens, run.aborted, run.running, run.finishReason]).toEqual(['wasm', 7, false, false, 'length']);
    expect(run.tokens).toEqual(greedy);
    const tokenizer = await loadTokenizer(DECODER);
    expect(run.text).toBe(tokenizer.decode(greedy)); // streamed piece by piece, the same text
    expect(await page.textContent('#generation-output')).toBe(prompt + run.text);
    expect(await page.textContent('#generation-speed')).toMatch(/^12 tokens \(max new tokens\) on wasm, greedy · prefill 7 tokens at \d+ tokens\/s · decode 11 tokens at \d+ tokens\/s$/);
    expect(generated.numTensors).toBe(tensorsLoaded); // the KV cache and every step's logits freed
    // Stop, clicked from the page as the third token shows (a mutation observer on the speed line, which each token updates)
    await page.fill('#max-new-tokens', '50');
    const actions = (await demo(page)).actions;
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        if (((window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.generation?.tokens.length ?? 0) < 3) return;
        observer.disconnect();
        document.getElementById('stop-generation')!.click();
      });
      observer.observe(document.getElementById('generation-speed')!, { childList: true, characterData: true, subtree: true });
      document.getElementById('generate')!.click();
    });
    await page.waitForFunction((n) => (window as unknown as { __attnkitDemo: DemoState }).__attnkitDemo.actions > n, actions, { timeout: 60_000 });
    const stopped = await demo(page);
    expect(stopped.error).toBeUndefined();
    expect([stopped.generation!.aborted, stopped.generation!.tokens]).toEqual([true, greedy.slice(0, 3)]);
    expect(await page.textContent('#generation-speed')).toMatch(/^stopped after 3 of 50 tokens on wasm, greedy · /);
    expect([await page.isDisabled('#generate'), await page.isDisabled('#stop-generation')]).toEqual([false, true]);
    expect(stopped.numTensors).toBe(tensorsLoaded);
    // sampling: the same seed, the same tokens
    await page.fill('#max-new-tokens', '6');
    await page.fill('#temperature', '0.9');
    const sampled = (await clickAndWait(page, '#generate')).generation!;
    const resampled = (await clickAndWait(page, '#generate')).generation!;
    expect(sampled.tokens).toHaveLength(6);
    expect(resampled.tokens).toEqual(sampled.tokens);
    expect(await page.textContent('#generation-speed')).toMatch(/^6 tokens \(max new tokens\) on wasm, sampled at temperature 0\.9, seed 1 · /);
    // the model's own typed errors, as text in the panel: a prompt and max new tokens past its 64 positions; a folder that is no causal LM
    await page.fill('#temperature', '0');
    await page.fill('#max-new-tokens', '60');
    const past = await clickAndWait(page, '#generate');
    expect(past.error).toBe("Qwen3ForCausalLM.stream: 'maxNewTokens' must be at most maxLength − prompt = 64 − 7 = 57; received number 60. Lower maxNewTokens, or raise maxLength (the KV cache grows with it).");
    expect(await page.textContent('#generation-error')).toBe(past.error);
    await page.fill('#lm-url', '/models/attnkit-tiny-bert/');
    const wrong = await clickAndWait(page, '#load-lm');
    expect(wrong.error).toMatch(/^loadCausalLM: .*bert/);
    expect(await page.textContent('#generation-error')).toBe(wrong.error);
    expect(await page.textContent('#lm-status')).toBe('/models/attnkit-tiny-bert/ did not load; still using /models/tiny-random-qwen3/.');
    expect(wrong.numTensors).toBe(tensorsLoaded);
    // --- the second backend, through the page's backend picker: the corpus is embedded again there and the decoder loaded again, the old ones freed
    expect((await pickBackend(page, SECOND_BACKEND)).error).toBeUndefined();
    const searchedThere = await clickAndWait(page, '#search');
    expect(searchedThere.error).toBeUndefined();
    const searchThere = searchedThere.search!;
    expect([searchThere.backend, searchThere.reused, searchThere.hits.map((h) => h.corpusId)]).toEqual([SECOND_BACKEND, false, expectedHits.map((h) => h.corpusId)]);
    expect(scoreDiff(searchThere.hits)).toBeLessThanOrEqual(TOLERANCE[SECOND_BACKEND]);
    await page.fill('#max-new-tokens', '12');
    const generatedThere = await clickAndWait(page, '#generate');
    expect(generatedThere.error).toBeUndefined();
    const runThere = generatedThere.generation!;
    expect([generatedThere.causalLM!.backend, runThere.backend, runThere.tokens]).toEqual([SECOND_BACKEND, SECOND_BACKEND, greedy]);
    expect(generatedThere.numTensors).toBe(tensorsLoaded);
    // the sentence encoder loaded again: the corpus embeddings go with the old one
    expect((await clickAndWait(page, '#load-url')).numTensors).toBe(tensorsLoaded - 1);
    panels['search'] = `wasm: embed ${search.embedMs.toFixed(0)} ms (12 documents), query ${search.queryMs.toFixed(1)} ms, max abs diff of the scores vs Node ${scoreDiff(search.hits).toExponential(1)}; ${SECOND_BACKEND}: embed ${searchThere.embedMs.toFixed(0)} ms, query ${searchThere.queryMs.toFixed(1)} ms, max abs diff ${scoreDiff(searchThere.hits).toExponential(1)}`;
    panels['generation'] = `tiny random Qwen3, 12 greedy tokens equal to transformers on wasm and ${SECOND_BACKEND}; wasm: prefill ${run.prefillTokensPerSecond!.toFixed(0)} tokens/s, decode ${run.decodeTokensPerSecond!.toFixed(0)} tokens/s; ${SECOND_BACKEND}: prefill ${runThere.prefillTokensPerSecond!.toFixed(0)} tokens/s, decode ${runThere.decodeTokensPerSecond!.toFixed(0)} tokens/s`;
    await page.close();
  }, 120_000);
});
