import { InvalidArgumentError, checkInteger, checkObject, describeValue, nodeBuiltin } from '@attnkit/errors';
import type { ModelSource } from '@attnkit/hub';
import { readSafetensors } from '@attnkit/hub';
import type { SentenceEncoder } from '@attnkit/sentence';
import { AdamW, type AdamWState } from '../optim/adamw.js';
import { CheckpointError } from './checkpoint-error.js';
import { optimizerStateFile, readOptimizerStateFile } from './optimizer-state-file.js';
import { sentenceFolderFiles } from './sentence-folder-files.js';
import { parseTrainerState, type TrainerState } from './trainer-state.js';
import { writeFolderAtomically } from './write-folder-atomically.js';

/** What {@link saveTrainingCheckpoint} writes. */
export interface TrainingCheckpoint {
  readonly model: SentenceEncoder;
  /** The folder the model was first loaded from (its tokenizer files are copied). */
  readonly source: ModelSource;
  readonly optimizer: AdamW;
  readonly state: TrainerState;
}

const NAME = /^checkpoint-(\d+)$/;

/**
 * Writes `<folder>/checkpoint-<step>/`: a complete sentence-transformers folder of the model (it
 * loads as is) plus `trainer_state.json` (step, epoch, seed, position in the data order, losses,
 * evaluations) and `optimizer.safetensors` (the AdamW moments). The checkpoint is written under a
 * temporary name and renamed, so it is complete or absent; then only the newest `keep` checkpoints
 * stay. Returns the checkpoint's path. Node only.
 *
 * @example
 * await saveTrainingCheckpoint('./run', { model, source: './attnkit-tiny-bert', optimizer, state }); // './run/checkpoint-40'
 */
export async function saveTrainingCheckpoint(folder: string, checkpoint: TrainingCheckpoint, keep = 1, caller = 'trainSentenceEncoder'): Promise<string> {
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a folder path (a non-empty string)', received: describeValue(folder) });
  checkObject(checkpoint, { caller, argument: 'checkpoint', expected: 'an object { model, source, optimizer, state }' });
  checkInteger(keep, { caller, argument: 'keep', min: 1 });
  const { optimizer } = checkpoint as { optimizer?: unknown };
  if (typeof optimizer !== 'object' || optimizer === null || !(optimizer instanceof AdamW)) throw new InvalidArgumentError({ caller, argument: 'checkpoint.optimizer', expected: 'the AdamW optimiser of the run', received: describeValue(optimizer) }); // an object first: tfjs' Optimizer[Symbol.hasInstance] reads its minimize
  const state = checkObject(checkpoint.state, { caller, argument: 'checkpoint.state', expected: "the run's TrainerState { format: 'attnkit-trainer-state', version: 1, step, ... }" });
  if (state.format !== 'attnkit-trainer-state' || state.version !== 1 || !Number.isInteger(state.step) || state.step < 0) throw new InvalidArgumentError({ caller, argument: 'checkpoint.state', expected: "a TrainerState { format: 'attnkit-trainer-state', version: 1, step (an integer ≥ 0), ... }", received: describeValue(state) });
  return writeTrainingCheckpoint(folder, await sentenceFolderFiles(checkpoint.model, checkpoint.source, caller), checkpoint.optimizer, checkpoint.state, keep, caller);
}

/**
 * Writes `<folder>/checkpoint-<step>/` holding `files` (a model folder, by path) plus
 * `trainer_state.json` and `optimizer.safetensors`, atomically, then keeps only the newest `keep`
 * checkpoints. What {@link saveTrainingCheckpoint} and the masked-LM trainer share. Node only.
 */
export async function writeTrainingCheckpoint(folder: string, files: Map<string, Uint8Array>, optimizer: AdamW, state: TrainerState, keep: number, caller: string): Promise<string> {
  const { join } = nodeBuiltin('node:path');
  const { readdir, rm, stat } = nodeBuiltin('node:fs/promises');
  const existing = await stat(folder).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory()) throw new CheckpointError(caller, folder, `the checkpoint folder ${folder} is a file; give a folder path (checkpoints are written inside it as checkpoint-<step>/).`);
  files.set('trainer_state.json', new TextEncoder().encode(`${JSON.stringify(state, null, 2)}\n`));
  files.set('optimizer.safetensors', optimizerStateFile(await optimizer.exportState()));
  const target = join(folder, `checkpoint-${state.step}`);
  await writeFolderAtomically(target, files, { replace: true, caller });
  const older = (await readdir(folder)).map((name) => NAME.exec(name)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => b - a).slice(keep);
  for (const step of older) await rm(join(folder, `checkpoint-${step}`), { recursive: true, force: true });
  return target;
}

/** What {@link readTrainingCheckpoint} returns. */
export interface ReadCheckpoint {
  /** The checkpoint folder read (the newest `checkpoint-<step>` when given their parent). */
  readonly folder: string;
  readonly state: TrainerState;
  readonly optimizer: AdamWState;
  /** The encoder's weights and each Dense module's, in the folder's order. */
  readonly encoderWeights: ReturnType<typeof readSafetensors>['tensors'];
  readonly denseWeights: ReadonlyArray<ReturnType<typeof readSafetensors>['tensors']>;
}

/**
 * Reads a training checkpoint: `folder` itself when it holds `trainer_state.json`, else the newest
 * `checkpoint-<step>` inside it. A missing folder, a file, or a folder without a trainer state is
 * a {@link CheckpointError} saying what was found. Node only.
 *
 * @example
 * const { state, optimizer } = await readTrainingCheckpoint('./run'); // ./run/checkpoint-40
 */
export async function readTrainingCheckpoint(folder: string, caller = 'trainSentenceEncoder'): Promise<ReadCheckpoint> {
  const opened = await openTrainingCheckpoint(folder, caller);
  const modules = JSON.parse(new TextDecoder().decode(await opened.read('modules.json'))) as Array<{ path: string; type: string }>;
  const denseWeights = [];
  for (const module of modules) if (module.type.endsWith('.Dense')) denseWeights.push(await opened.weights(`${module.path}/model.safetensors`));
  return { folder: opened.folder, state: opened.state, optimizer: opened.optimizer, encoderWeights: await opened.weights('model.safetensors'), denseWeights };
}

/** A training checkpoint opened by {@link openTrainingCheckpoint}: its state and optimiser, and readers of its other files. */
export interface OpenedCheckpoint {
  readonly folder: string;
  readonly state: TrainerState;
  readonly optimizer: AdamWState;
  /** A file's bytes (a missing or unreadable file is a `CheckpointError`). */
  read(name: string): Promise<Uint8Array>;
  /** A safetensors file's tensors. */
  weights(name: string): Promise<ReturnType<typeof readSafetensors>['tensors']>;
}

/**
 * Opens a training checkpoint: `folder` itself when it holds `trainer_state.json`, else the newest
 * `checkpoint-<step>` inside it; reads and checks its trainer state and optimiser state. Node only.
 */
export async function openTrainingCheckpoint(folder: string, caller: string): Promise<OpenedCheckpoint> {
  if (typeof caller !== 'string') throw new InvalidArgumentError({ caller: 'readTrainingCheckpoint', argument: 'caller', expected: 'the name of the calling function (a string)', received: describeValue(caller) });
  if (typeof folder !== 'string' || folder === '') throw new InvalidArgumentError({ caller, argument: 'folder', expected: 'a checkpoint folder path (a non-empty string)', received: describeValue(folder) });
  const { join } = nodeBuiltin('node:path');
  const { readdir, readFile, stat } = nodeBuiltin('node:fs/promises');
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined) throw new CheckpointError(caller, folder, `the resume folder ${folder} does not exist.`);
  if (!info.isDirectory()) throw new CheckpointError(caller, folder, `the resume folder ${folder} is a file; give a checkpoint folder (with trainer_state.json) or the folder holding checkpoint-<step>/ folders.`);
  let chosen = folder;
  const names = await readdir(folder);
  if (!names.includes('trainer_state.json')) {
    const newest = names.map((name) => NAME.exec(name)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => b - a)[0];
    if (newest === undefined) throw new CheckpointError(caller, folder, `${folder} has no trainer_state.json and no checkpoint-<step>/ folder: it is not a training checkpoint (a saved model folder cannot be resumed; start a new run from it instead).`);
    chosen = join(folder, `checkpoint-${newest}`);
  }
  const read = async (name: string): Promise<Uint8Array> => {
    try {
      return new Uint8Array(await readFile(join(chosen, name)));
    } catch (error) {
      throw new CheckpointError(caller, chosen, `${chosen}/${name} cannot be read (${(error as Error).message}); the checkpoint is incomplete.`, error);
    }
  };
  let stateJson: unknown;
  try {
    stateJson = JSON.parse(new TextDecoder().decode(await read('trainer_state.json')));
  } catch (error) {
    if (error instanceof CheckpointError) throw error;
    throw new CheckpointError(caller, chosen, `${chosen}/trainer_state.json is not valid JSON (${(error as Error).message}).`, error);
  }
  const state = parseTrainerState(stateJson, chosen, caller);
  const optimizer = readOptimizerStateFile(await read('optimizer.safetensors'), chosen, caller);
  const weights = async (name: string) => {
    try {
      return readSafetensors(await read(name)).tensors;
    } catch (error) {
      if (error instanceof CheckpointError) throw error;
      throw new CheckpointError(caller, chosen, `${chosen}/${name} cannot be read (${(error as Error).message}).`, error);
    }
  };
  return { folder: chosen, state, optimizer, read, weights };
}
