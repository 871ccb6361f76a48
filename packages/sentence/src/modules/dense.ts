import { tidy, type Tensor } from '@tensorflow/tfjs-core';
import { checkObject, InvalidArgumentError } from '@attnkit/errors';
import { Linear, Module, activationByName, skipInitialization, type ActivationFunction, type StateDictSource } from '@attnkit/nn';

/** A sentence-transformers `Dense` module's `config.json`, read. */
export interface DenseConfig {
  readonly inFeatures: number;
  readonly outFeatures: number;
  readonly bias: boolean;
  /** The activation's `@attnkit/nn` name (`'tanh'`, `'linear'` for Identity, ...). */
  readonly activation: string;
}

/** PyTorch activation classes a `Dense` config names (`torch.nn.modules.activation.Tanh`) → `@attnkit/nn` names. */
const TORCH_ACTIVATIONS: Readonly<Record<string, string>> = {
  Tanh: 'tanh', Identity: 'linear', ReLU: 'relu', GELU: 'gelu', Sigmoid: 'sigmoid', SiLU: 'silu', LeakyReLU: 'leaky_relu', Mish: 'mish', ReLU6: 'relu6',
};

/**
 * Reads a `Dense` module's `config.json`: `in_features`, `out_features`, `bias`, and
 * `activation_function` (a PyTorch class path such as `torch.nn.modules.activation.Tanh`; Tanh
 * when absent, as sentence-transformers does). Activations outside `torch.nn` are an error.
 *
 * @example
 * parseDenseConfig({ in_features: 768, out_features: 256, bias: true, activation_function: 'torch.nn.modules.activation.Tanh' });
 */
export function parseDenseConfig(json: unknown, caller = 'parseDenseConfig'): DenseConfig {
  caller = typeof caller === 'string' ? caller : 'parseDenseConfig'; // a caller only names the function in messages
  const fail = (argument: string, expected: string, received: unknown): never => {
    throw new InvalidArgumentError({ caller, argument, expected, received: JSON.stringify(received) ?? String(received) });
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('config', 'a JSON object (the Dense config.json)', json);
  const raw = new Map(Object.entries(json as object));
  const size = (key: string): number => {
    const value = raw.get(key);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(key, 'a positive integer', value);
    return value as number;
  };
  const bias = raw.get('bias') ?? true;
  if (typeof bias !== 'boolean') fail('bias', 'true or false', bias);
  const path = raw.get('activation_function') ?? 'torch.nn.modules.activation.Tanh';
  const name = typeof path === 'string' && path.startsWith('torch.') ? TORCH_ACTIVATIONS[path.slice(path.lastIndexOf('.') + 1)] : undefined;
  if (name === undefined) fail('activation_function', `a torch.nn activation attnkit has (${Object.keys(TORCH_ACTIVATIONS).join(', ')})`, path);
  return { inFeatures: size('in_features'), outFeatures: size('out_features'), bias: bias as boolean, activation: name as string };
}

/**
 * sentence-transformers' `Dense`: `activation(linear(x))` on the sentence embedding, parameters
 * named as its checkpoint (`linear.weight`, `linear.bias`). `[B, in]` → `[B, out]`.
 *
 * @example
 * const dense = new Dense({ inFeatures: 384, outFeatures: 128, bias: true, activation: 'tanh' }, weights);
 * dense.forward(embeddings); // [B, 128]
 */
export class Dense extends Module {
  readonly config: DenseConfig;
  readonly linear: Linear;
  readonly activation: ActivationFunction;

  /** `checkpoint`: the module's `model.safetensors` values, loaded strictly; random (PyTorch's Linear init) without one. */
  constructor(config: DenseConfig, checkpoint?: StateDictSource) {
    super();
    checkObject(config, { caller: 'Dense', argument: 'config', expected: 'a parsed Dense config (parseDenseConfig)' });
    this.config = config;
    this.activation = activationByName(config.activation, 'Dense');
    this.linear = this.guard(() => {
      const linear = checkpoint === undefined
        ? this.registerModule('linear', new Linear(config.inFeatures, config.outFeatures, { bias: config.bias }))
        : skipInitialization(() => this.registerModule('linear', new Linear(config.inFeatures, config.outFeatures, { bias: config.bias })));
      if (checkpoint !== undefined) this.loadStateDict(checkpoint);
      return linear;
    });
  }

  forward(x: Tensor): Tensor {
    this.assertLive('Dense.forward');
    return tidy(() => this.activation(this.linear.forward(x)));
  }
}
