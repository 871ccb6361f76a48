/**
 * The bytes of a base64 string (the committed wasm modules under `src/wasm/`), with `atob`, so it
 * runs in Node and browsers alike.
 *
 * @example
 * new WebAssembly.Module(decodeBase64(FUSED_ATTENTION_WASM));
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
