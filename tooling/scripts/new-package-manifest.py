#!/usr/bin/python3
"""Writes packages/<name>/package.json in the one manifest shape every @attnkit package shares.
Usage: new-package-manifest.py <name> "<description>" [workspace deps...]"""
import json, sys
from pathlib import Path

name, description, *deps = sys.argv[1:]
root = Path(__file__).resolve().parents[2]
manifest = {
    "name": f"@attnkit/{name}",
    "version": "0.0.0",
    "description": description,
    "license": "Apache-2.0",
    "type": "module",
    "sideEffects": False,
    "exports": {
        ".": {"types": "./dist/index.d.ts", "@attnkit/source": "./src/index.ts", "default": "./dist/index.js"},
        "./package.json": "./package.json",
    },
    "files": ["dist", "src", "!src/**/*.test.ts", "!src/**/*.browser.test.ts"],
    "scripts": {
        "build": "tsc -p tsconfig.build.json",
        "typecheck": "tsc -p tsconfig.json --noEmit",
        "lint": "publint --strict && attw --pack . --profile esm-only",
        "test": "vitest run --config ../../tooling/vitest-config/node.config.ts",
        "test:browser": "vitest run --config ../../tooling/vitest-config/browser.config.ts",
    },
    "dependencies": {f"@attnkit/{d}": "workspace:^" for d in deps},
    "peerDependencies": {"@tensorflow/tfjs-core": "^4.22.0"},
    "devDependencies": {
        "@attnkit/reference": "workspace:*",
        "@attnkit/test-utils": "workspace:*",
        "@attnkit/typescript-config": "workspace:*",
        "@attnkit/vitest-config": "workspace:*",
        "@tensorflow/tfjs-core": "4.22.0",
    },
    "publishConfig": {"access": "public"},
}
folder = root / "packages" / name
(folder / "src").mkdir(parents=True, exist_ok=True)
(folder / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
for f in ("tsconfig.json", "tsconfig.build.json"):
    (folder / f).write_text((root / "packages" / "backends" / f).read_text())
