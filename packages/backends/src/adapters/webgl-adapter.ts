import { add, env, fill, tidy } from '@tensorflow/tfjs-core';
import { detectEnvironment } from '@attnkit/errors';
import { webglContext } from '@attnkit/kernels';
import { selectBackend } from '../select-backend.js';
import type { BackendAdapter } from './backend-adapter.js';
import { WEBGL_PACKAGE } from './backend-packages.js';
import { loadBackendPackage } from './load-backend-package.js';

/**
 * Measures the precision the shaders really store: 1 + 2^-20 survives a float32 texture and
 * rounds to 1 in a half-float one. tfjs' own `floatPrecision()` cannot be used: it returns 16
 * whenever float32 rendering is enabled (tensorflow/tfjs#6980). 4096 elements keep the op off
 * tfjs' small-tensor CPU forwarding.
 */
async function measuredPrecision(): Promise<16 | 32> {
  const probeValue = 1 + 2 ** -20;
  const probe = tidy(() => add(fill([4096], probeValue), 0));
  const values = await probe.data();
  probe.dispose();
  return values.every((v) => v === probeValue) ? 32 : 16;
}

function probeContext(): WebGLRenderingContext | WebGL2RenderingContext | null {
  const g = globalThis as { OffscreenCanvas?: new (w: number, h: number) => OffscreenCanvas; document?: Document };
  const canvas = g.OffscreenCanvas !== undefined ? new g.OffscreenCanvas(1, 1) : g.document?.createElement('canvas');
  if (canvas === undefined) return null;
  return (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
}

function rendererOf(gl: WebGLRenderingContext): string {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(gl.getParameter(info === null ? gl.RENDERER : info.UNMASKED_RENDERER_WEBGL));
}

/**
 * tfjs-backend-webgl. Browser only. Reports whether float32 textures are renderable; when they are
 * not, tfjs stores half floats and results carry ~1e-3 error.
 */
export const webglAdapter: BackendAdapter = {
  name: 'webgl',
  optionalPackage: WEBGL_PACKAGE,
  async unavailableReason() {
    if (detectEnvironment() === 'node') return 'Node.js has no WebGL (run it in a browser)';
    return probeContext() === null ? 'the browser gave no WebGL or WebGL2 context' : undefined;
  },
  async initialize() {
    await loadBackendPackage(WEBGL_PACKAGE, 'useBackend');
    await selectBackend('webgl');
  },
  fillKernels() {
    return [];
  },
  async describe() {
    return {
      floatPrecision: await measuredPrecision(),
      webgl: {
        version: env().getNumber('WEBGL_VERSION'),
        renderFloat32: env().getBool('WEBGL_RENDER_FLOAT32_ENABLED'),
        maxTextureSize: env().getNumber('WEBGL_MAX_TEXTURE_SIZE'),
        renderer: rendererOf(webglContext()!),
      },
    };
  },
};
