#!/usr/bin/env node
// Copies non-TypeScript runtime files (e.g. worker entry points) from src/ to dist/ after tsc.
// Usage: node copy-assets.mjs <from> <to> <extension>...
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const [from, to, ...extensions] = process.argv.slice(2);
for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !extensions.some((e) => entry.name.endsWith(e))) continue;
  const source = join(entry.parentPath, entry.name);
  cpSync(source, join(to, relative(from, source)));
}
