import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** A `vite` or `vite preview` server a test started, and how to stop it. */
export interface ViteServer {
  readonly url: string;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs the project's own `vite` CLI (`args`: `[]` for the dev server, `['preview']`) on
 * 127.0.0.1 and resolves with the URL it prints; rejects with its output if it exits first or
 * prints none in `timeoutMs`.
 */
export function startVite(project: string, args: readonly string[], timeoutMs = 30_000): Promise<ViteServer> {
  const child = spawn(process.execPath, [join(project, 'node_modules', 'vite', 'bin', 'vite.js'), ...args, '--host', '127.0.0.1'], {
    cwd: project,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let output = '';
  const stop = () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill())));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`vite ${args.join(' ')} printed no URL in ${timeoutMs} ms:\n${output}`))), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''))?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, output: () => output, stop });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`vite ${args.join(' ')} exited with ${code} before serving:\n${output}`));
    });
  });
}
