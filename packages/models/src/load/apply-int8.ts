import { ModelLoadError, type ModelFiles, type StoredInt8Weight } from '@attnkit/hub';
import { loadInt8LinearLayers, quantizeLinearLayers, type Module } from '@attnkit/nn';
import type { CallBackend } from '@attnkit/backends';

/** What {@link applyInt8} is told about the load. */
export interface ApplyInt8Options {
  readonly files: ModelFiles;
  readonly backend: CallBackend;
  /** The int8 weights stored in the folder, by the path of their `Linear` (empty for a float folder). */
  readonly int8Layers: ReadonlyMap<string, StoredInt8Weight>;
  /** `'int8'` when the caller asked for an int8 model. */
  readonly quantize: 'int8' | undefined;
  /** Where the encoder sits in the model (`''`, or `'bert.'` under a head). */
  readonly encoderPath: string;
  readonly onNotice?: ((message: string) => void) | undefined;
  /** `quantize: 'int8'` quantizes the encoder's `Linear` layers only, the head's staying float32 (a classifier's: its error would go straight into the logits). Default false: every `Linear` of the model. */
  readonly floatHead?: boolean | undefined;
}

/**
 * Step 4 of loading an encoder: an int8 folder's `Int8Linear` layers built from the stored int8
 * values and scales (never widened), then — for an int8 folder loaded without `quantize`, or any
 * folder loaded with `quantize: 'int8'` — every other `Linear` of the encoder quantized, as
 * `quantize: 'int8'` on the float folder would. On failure the model is disposed and a
 * `ModelLoadError` names the file.
 *
 * @example
 * applyInt8(model, { files, backend, int8Layers, quantize: 'int8', encoderPath: '' });
 */
export function applyInt8(model: Module, { files, backend, int8Layers, quantize, encoderPath, onNotice, floatHead = false }: ApplyInt8Options): void {
  const encoderOf = () => (encoderPath === '' ? model : new Map(model.namedModules()).get(encoderPath.slice(0, -1)) as Module); // heads of a build stay as they are
  const fail = (message: string, error: unknown): never => {
    model.dispose();
    throw new ModelLoadError('model.safetensors', `model.safetensors in ${files.where} ${message}: ${(error as Error).message}`, error, files.caller);
  };
  if (int8Layers.size > 0) {
    try {
      backend.run(() => loadInt8LinearLayers(model, int8Layers));
    } catch (error) {
      fail('has int8 weights that do not fit the model (each names <linear>.weight)', error);
    }
    if (quantize === undefined) {
      backend.run(() => quantizeLinearLayers(encoderOf())); // an initialised pooler (a folder without one), as quantize: 'int8' would
      onNotice?.(`${files.caller}: ${files.where} is an int8 folder (config.json's quantization_config); loaded as an int8 inference model, ${int8Layers.size} Int8Linear layers built from the stored int8 weights.`);
    }
  }
  if (quantize === 'int8') {
    try {
      backend.run(() => quantizeLinearLayers(floatHead ? encoderOf() : model)); // on the load's backend: the int8 layers' float biases are made there
    } catch (error) {
      fail('cannot be quantized to int8', error);
    }
  }
}
