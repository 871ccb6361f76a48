import { statSync } from 'node:fs';
import { InvalidArgumentError } from '@attnkit/errors';
import { hubSourceOf } from '@attnkit/hub';
import { isUrl } from './caller-path.js';
import { commandCaller, type CliCommand } from './command-line/cli-command.js';

/**
 * Refuses a model folder (`--model DIR`, `attnkit quantize <model-folder>`) that is a local path with
 * no folder there, before anything is loaded: the loader would report the first file it misses
 * ("config.json is missing"), which reads as a broken folder rather than a wrong path. `model` is
 * the path as resolved (`callerPath`), and the message names it so. URLs are left to the loader
 * (HTTP status, network failure).
 *
 * @example
 * checkModelFolder(ENCODE_COMMAND, '--model', '/home/me/all-MiniLM-L6-v2'); // throws unless that folder exists
 * // attnkit encode: '--model' must be a model folder, a Hugging Face id ('org/name') or an http(s) URL; received /home/me/all-MiniLM-L6-v2, which does not exist. …
 */
export function checkModelFolder(command: CliCommand, argument: string, model: string): void {
  if (isUrl(model) || hubSourceOf(model) !== undefined) return; // a URL or a Hugging Face id: the loader reads it (the cache, or the Hub)
  let problem: string | undefined;
  try {
    if (!statSync(model).isDirectory()) problem = 'a file, not a folder';
  } catch (error) {
    const code = (error as { code?: string }).code;
    problem = code === 'ENOENT' || code === 'ENOTDIR' ? 'which does not exist' : `which cannot be read (${code ?? (error as Error).message})`;
  }
  if (problem === undefined) return;
  throw new InvalidArgumentError({
    caller: commandCaller(command),
    argument,
    expected: "a model folder, a Hugging Face id ('org/name') or an http(s) URL",
    received: `${model}, ${problem}`,
    hint: `A model folder holds config.json and model.safetensors (and, for texts, the tokenizer files); relative paths are taken from the directory you run the command in (${process.cwd()}).`,
  });
}
