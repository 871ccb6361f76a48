// Entry point of every tfjs-backend-wasm pthread worker in Node (started by a file path, which
// Node's worker_threads accepts, instead of the blob: URL tfjs uses, which it rejects with
// ERR_WORKER_PATH). It evaluates emscripten's worker script and the threaded factory the way a
// browser worker would, providing the bundle-scope names the factory source refers to.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

Object.assign(globalThis, {
  require,
  require$$0: require('node:fs'),
  require$$1: require('node:path'),
  require$$3: require('node:perf_hooks'),
  require$$4: require('node:os'),
  commonjsGlobal: globalThis,
  __dirname: workerData.directory,
  __filename: workerData.script,
  _scriptDir: workerData.script,
});

// Emscripten's worker script subscribes to parentPort itself; messages are routed through this
// file instead so that they stay in order while the two scripts (Blobs) are read asynchronously.
const subscribe = parentPort.on.bind(parentPort);
let deliver = () => {
  throw new Error('attnkit pthread worker: a message arrived before the emscripten worker script loaded');
};
parentPort.on = (event, listener) => {
  if (event !== 'message') return subscribe(event, listener);
  deliver = listener;
  return parentPort;
};

const MAIN_SCRIPT = 'attnkit:tfjs-wasm-threaded-factory';
let mainScript = '';
let queue = workerData.workerScript.text().then((source) => {
  (0, eval)(source);
  const importScripts = globalThis.importScripts;
  globalThis.importScripts = (file) => (file === MAIN_SCRIPT ? (0, eval)(mainScript) : importScripts(file));
});

subscribe('message', (message) => {
  queue = queue.then(async () => {
    if (message !== null && typeof message === 'object' && message.cmd === 'load' && typeof message.urlOrBlob !== 'string') {
      mainScript = await message.urlOrBlob.text();
      message.urlOrBlob = MAIN_SCRIPT;
    }
    deliver(message);
  });
});
