// What graphics the peer page got: the WebGPU adapter and the WebGL renderer, and whether either is a real GPU.

/** The graphics a Chromium run had (bench:peer --gpu). */
export interface GpuInfo {
  /** `navigator.gpu.requestAdapter()`'s info (vendor, architecture, device, description), or why there is none. */
  readonly webgpu: string;
  /** WebGL's `UNMASKED_RENDERER_WEBGL` (WEBGL_debug_renderer_info), else `RENDERER`, or why there is none. */
  readonly webgl: string;
  /** A WebGPU adapter that is not a fallback (software) adapter and not SwiftShader, llvmpipe or lavapipe. */
  readonly webgpuOnGpu: boolean;
  /** A WebGL renderer that is not SwiftShader, llvmpipe or another software rasterizer. */
  readonly webglOnGpu: boolean;
}

/** Names of software renderers: their numbers are not GPU numbers. */
export function isSoftwareRenderer(name: string): boolean {
  return /swiftshader|llvmpipe|lavapipe|softpipe|software|microsoft basic render/i.test(name);
}

interface AdapterInfoLike { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean }
interface AdapterLike { info?: AdapterInfoLike; isFallbackAdapter?: boolean }

/** Runs in the page: asks for a WebGPU adapter and a WebGL context and reads what they are. */
export async function probeGpu(): Promise<GpuInfo> {
  let webgpu = 'no navigator.gpu';
  let webgpuOnGpu = false;
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(options?: object): Promise<AdapterLike | null> } }).gpu;
  if (gpu !== undefined) {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch(() => null);
    if (adapter === null) webgpu = 'requestAdapter() gave no adapter';
    else {
      const info = adapter.info ?? {};
      const fallback = info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
      webgpu = [info.vendor, info.architecture, info.device, info.description].filter((s) => s !== undefined && s !== '').join(', ') || 'an adapter without info';
      if (fallback) webgpu += ' (fallback adapter)';
      webgpuOnGpu = !fallback && !isSoftwareRenderer(webgpu);
    }
  }
  let webgl = 'no WebGL context';
  const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
  if (gl !== null) {
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    webgl = String(gl.getParameter(debug === null ? gl.RENDERER : debug.UNMASKED_RENDERER_WEBGL));
  }
  return { webgpu, webgl, webgpuOnGpu, webglOnGpu: gl !== null && !isSoftwareRenderer(webgl) };
}
