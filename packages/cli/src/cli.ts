#!/usr/bin/env node
import { env } from '@tensorflow/tfjs-core';
import { AttnkitError, InvalidArgumentError } from '@attnkit/errors';
import { formatHelp, helpRequested, type CommandHelp } from './command-help.js';
import { TRAIN_HELP, parseTrainArgs, runTrain } from './train-command.js';
import { BENCH_HELP, formatBench, parseBenchArgs, runBench } from './bench-command.js';
import { DEMO_HELP, formatDemoReport, parseDemoArgs, runDemo } from './demo-command.js';
import { EMBED_HELP, formatEmbedSummary, parseEmbedArgs, runEmbed } from './embed/embed-command.js';
import { JOIN_HELP, parseJoinArgs, runJoin } from './embed/join-command.js';
import { progressBar } from './progress-bar.js';
import { ENCODE_HELP, parseEncodeArgs, runEncode } from './encode-command.js';
import { REPORT_HELP, parseReportArgs, runReport } from './report-command.js';
import { QUANTIZE_HELP, formatQuantizeSummary, parseQuantizeArgs, runQuantize } from './quantize-command.js';
import { SIMILARITY_HELP, formatSimilarity, parseSimilarityArgs, runSimilarity } from './similarity-command.js';

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

const COMMANDS: Record<string, { readonly help: CommandHelp; readonly run: (argv: string[]) => Promise<void> }> = {
  encode: { help: ENCODE_HELP, run: encode },
  similarity: { help: SIMILARITY_HELP, run: similarity },
  embed: { help: EMBED_HELP, run: embed },
  join: { help: JOIN_HELP, run: joinShards },
  bench: { help: BENCH_HELP, run: bench },
  train: { help: TRAIN_HELP, run: train },
  quantize: { help: QUANTIZE_HELP, run: quantize },
  report: { help: REPORT_HELP, run: report },
};

async function main(given: string[]): Promise<void> {
  const argv = given[0] === '--' ? given.slice(1) : given; // `pnpm start -- encode ...` passes the `--` on (npm drops it)
  const [command, ...rest] = argv;
  if (command === undefined || command.startsWith('-')) {
    if (helpRequested(argv)) return void console.log(formatHelp(DEMO_HELP));
    return demo(argv);
  }
  const chosen = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (chosen === undefined) throw new InvalidArgumentError({ caller: 'attnkit', argument: 'command', expected: `none (the demo), ${Object.keys(COMMANDS).join(', ').replace(/, (?=[^,]*$)/, ' or ')}`, received: `'${command.slice(0, 40)}'`, hint: 'Run attnkit --help for the commands and their options.' }); // a usage mistake: exit code 2
  if (helpRequested(rest)) return void console.log(formatHelp(chosen.help));
  return chosen.run(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(message.startsWith('attnkit') ? message : `attnkit: ${message}`); // messages of the CLI itself already name it
  process.exitCode = error instanceof AttnkitError ? 2 : 1;
});
