#!/usr/bin/env node
import { env } from '@tensorflow/tfjs-core';
import { AttnkitError, InvalidArgumentError } from '@attnkit/errors';
import { closestName } from '@attnkit/errors';
import { formatHelp, helpRequested } from './command-line/command-help.js';
import { COMMANDS, type CommandName } from './command-list.js';
import { parseTrainArgs, runTrain } from './train-command.js';
import { formatBench, parseBenchArgs, runBench } from './bench-command.js';
import { DEMO_COMMAND, formatDemoReport, parseDemoArgs, runDemo } from './demo-command.js';
import { formatEmbedSummary, parseEmbedArgs, runEmbed } from './embed/embed-command.js';
import { parseJoinArgs, runJoin } from './embed/join-command.js';
import { formatSearch, parseSearchArgs, runSearch } from './search/search-command.js';
import { progressBar } from './progress-bar.js';
import { parseEncodeArgs, runEncode } from './encode-command.js';
import { parseReportArgs, runReport } from './report-command.js';
import { formatQuantizeSummary, parseQuantizeArgs, runQuantize } from './quantize-command.js';
import { formatSimilarity, parseSimilarityArgs, runSimilarity } from './similarity-command.js';
import { formatCacheList, parseCacheArgs, runCache } from './cache-command.js';
import { parseDownloadArgs, runDownload } from './download-command.js';
import { formatGenerateSummary, parseGenerateArgs, runGenerate } from './generate-command.js';

env().set('PROD', true); // no "install tfjs-node" banner (attnkit targets cpu and wasm in Node), no debug checks

// stdout holds only the result (one JSON document with --json); progress and timings go to stderr.

async function demo(argv: string[]): Promise<void> {
  const request = parseDemoArgs(argv);
  const progress = process.stderr.isTTY
    ? (p: { file: string; loaded: number; total: number | undefined }) => process.stderr.write(`\rloading ${p.file} ${p.total ? `${Math.round((100 * p.loaded) / p.total)}%` : `${p.loaded} bytes`}   ${p.loaded === p.total ? '\n' : ''}`)
    : undefined;
  const result = await runDemo(request, progress);
  console.log(request.json ? JSON.stringify(result) : formatDemoReport(result));
}

async function encode(argv: string[]): Promise<void> {
  const request = parseEncodeArgs(argv);
  const result = await runEncode(request);
  if (request.output === undefined) console.log(JSON.stringify(result));
  else console.error(`attnkit encode: ${result.last_hidden_state.length} sequence(s) on ${result.backend}, load ${result.timings_ms.load} ms, forward ${result.timings_ms.forward} ms -> ${request.output}`);
}

async function similarity(argv: string[]): Promise<void> {
  const request = parseSimilarityArgs(argv);
  const { result, timingsMs } = await runSimilarity(request);
  console.error(`attnkit similarity: ${request.texts.length} texts on ${request.backend}, load ${timingsMs.load} ms, encode ${timingsMs.encode} ms`);
  console.log(request.json ? JSON.stringify(result) : formatSimilarity(result, request.model));
}

async function report(argv: string[]): Promise<void> {
  parseReportArgs(argv);
  const { text, failures } = await runReport();
  console.log(text);
  if (failures > 0) throw new Error(`${failures} conformance case(s) failed.`);
}

/**
 * Runs a long command whose first Ctrl-C (or SIGTERM, as a stopped Kubernetes pod gets) asks it to
 * finish what is in flight and leave a resumable state; a second Ctrl-C exits at once (130).
 */
async function interruptibly<T>(command: string, finishing: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error(`\nattnkit ${command}: interrupted; ${finishing} (Ctrl-C again to stop at once)`);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

async function embed(argv: string[]): Promise<void> {
  const request = parseEmbedArgs(argv);
  const bar = progressBar('embed', 'rows');
  const summary = await interruptibly('embed', 'writing the rows in flight', (signal) => runEmbed(request, { signal, onProgress: (state) => bar.update(state) })).finally(() => bar.finish());
  console.error(formatEmbedSummary(summary));
  if (request.json) console.log(JSON.stringify(summary));
  if (summary.status === 'interrupted') process.exitCode = 130;
}

async function train(argv: string[]): Promise<void> {
  const request = parseTrainArgs(argv);
  const bar = progressBar('train', 'steps');
  const summary = await interruptibly('train', 'finishing the step and writing a checkpoint', (signal) =>
    runTrain(request, { signal, onProgress: (p) => bar.update({ done: p.step, fraction: p.step / p.totalSteps, detail: `loss ${p.loss.toFixed(4)}` }) }),
  ).finally(() => bar.finish());
  console.error(`attnkit train: ${summary.steps} steps${summary.resumedSteps > 0 ? ` (${summary.resumedSteps} from the interrupted run)` : ''} on ${summary.examples} ${summary.loss === 'masked-language-model' ? 'texts' : 'pairs'} (${summary.loss}), loss ${summary.firstLoss.toFixed(4)} -> ${summary.lastLoss.toFixed(4)}, ${summary.stepsPerSecond} steps/s${summary.status === 'interrupted' ? '; interrupted: run the same command again to continue' : ` -> ${summary.output}`}`);
  if (request.json) console.log(JSON.stringify(summary));
  if (summary.status === 'interrupted') process.exitCode = 130;
}

async function quantize(argv: string[]): Promise<void> {
  const request = parseQuantizeArgs(argv);
  const summary = await runQuantize(request, (message) => console.error(message));
  console.error(formatQuantizeSummary(summary));
  if (request.json) console.log(JSON.stringify(summary));
}

async function bench(argv: string[]): Promise<void> {
  const request = parseBenchArgs(argv);
  const results = await runBench(request);
  console.log(request.json ? JSON.stringify(results) : formatBench(results, request));
}

async function joinShards(argv: string[]): Promise<void> {
  const request = parseJoinArgs(argv);
  const result = await runJoin(request);
  console.error(`attnkit join: ${result.rows} rows from ${result.shards} shards -> ${result.ids === undefined ? result.output : `${result.output} + ${result.ids}`}`);
  if (request.json) console.log(JSON.stringify(result));
}

async function search(argv: string[]): Promise<void> {
  const request = parseSearchArgs(argv);
  const result = await runSearch(request);
  result.notices.forEach((notice) => console.error(notice));
  const { load, search: searched, rerank } = result.timingsMs;
  console.error(`attnkit search: ${request.queries.length} quer${request.queries.length === 1 ? 'y' : 'ies'} over ${result.rows} rows of ${result.dim} dims on ${request.backend}, load ${load} ms, search ${searched} ms${rerank === undefined ? '' : `, rerank ${rerank} ms`}`);
  console.log(request.json ? JSON.stringify(result) : formatSearch(result));
}

async function generate(argv: string[]): Promise<void> {
  const request = parseGenerateArgs(argv);
  const result = await runGenerate(request, (piece) => process.stdout.write(piece));
  if (request.json) console.log(JSON.stringify(result));
  else process.stdout.write('\n');
  console.error(formatGenerateSummary(result, request.backend));
}

/** What each command does with its arguments (its declaration, help and parsing are in COMMANDS). */
async function download(argv: string[]): Promise<void> {
  const request = parseDownloadArgs(argv);
  const bar = progressBar('download', 'bytes');
  const result = await runDownload(request, (file, loaded, total) => bar.update({ done: loaded, fraction: total === undefined ? 0 : loaded / total, detail: file })).finally(() => bar.finish());
  console.error(`attnkit download: ${result.id} at ${result.commit.slice(0, 12)}, ${result.files.length} files -> ${result.folder}`);
  console.log(request.json ? JSON.stringify(result) : result.folder);
}

async function cache(argv: string[]): Promise<void> {
  const request = parseCacheArgs(argv);
  const result = runCache(request);
  if (request.json) return void console.log(JSON.stringify(result));
  console.log(Array.isArray(result) ? formatCacheList(result) : `attnkit cache: deleted ${result.id}${result.revision === undefined ? '' : `@${result.revision}`}, ${(result.freed / 1e6).toFixed(1)} MB freed`);
}

const RUN: Readonly<Record<CommandName, (argv: string[]) => Promise<void>>> = { encode, similarity, embed, join: joinShards, search, generate, bench, train, quantize, download, cache, report };

async function main(given: string[]): Promise<void> {
  const argv = given[0] === '--' ? given.slice(1) : given; // `pnpm start -- encode ...` passes the `--` on (npm drops it)
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    if (helpRequested(argv)) return void console.log(formatHelp(DEMO_COMMAND, COMMANDS));
    return demo(argv);
  }
  const command = COMMANDS.find((c) => c.name === name && c.name !== '');
  if (command === undefined) {
    const names = COMMANDS.map((c) => c.name).filter((n) => n !== '');
    const meant = closestName(name, names);
    // a usage mistake: exit code 2
    throw new InvalidArgumentError({ caller: 'attnkit', argument: 'command', expected: `none (the demo), ${names.join(', ').replace(/, (?=[^,]*$)/, ' or ')}`, received: `'${name.slice(0, 40)}'`, hint: `${meant === undefined ? '' : `Did you mean attnkit ${meant}? `}Run attnkit --help for the commands and their options.` });
  }
  if (helpRequested(rest)) return void console.log(formatHelp(command));
  return RUN[command.name as CommandName](rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message.startsWith('attnkit') ? message : `attnkit: ${message}`); // messages of the CLI itself already name it
  process.exitCode = error instanceof AttnkitError ? 2 : 1;
});
