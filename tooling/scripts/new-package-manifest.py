#!/usr/bin/python3
"""Writes packages/<name>/package.json in the one manifest shape every @attnkit package shares.
Usage: new-package-manifest.py <name> "<description>" [workspace deps...]
       new-package-manifest.py --check   (every packages/*/package.json has that shape: same keys in the
                                          same order, and the repository, homepage, bugs and keywords fields)"""
import json, sys
from pathlib import Path

REPOSITORY = "https://github.com/attnkit/attnkit"
KEYWORDS = ["attnkit", "tensorflow.js", "transformer"]  # every package's keywords start with these


def template(name, description="", deps=()):
    return {
        "name": f"@attnkit/{name}",
        "version": "0.0.0",
        "description": description,
        "license": "Apache-2.0",
        "repository": {"type": "git", "url": f"git+{REPOSITORY}.git", "directory": f"packages/{name}"},
        "homepage": f"{REPOSITORY}/tree/main/packages/{name}#readme",
        "bugs": f"{REPOSITORY}/issues",
        "keywords": [*KEYWORDS, name],  # add a few words that say what the package is
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


def problems(path):
    """What differs between an existing manifest and the shape (optional trailing peerDependenciesMeta, and a
    "bin" right after "sideEffects" for a package that ships a command, allowed)."""
    name = path.parent.name
    actual = json.loads(path.read_text())
    expected = template(name)
    found = []
    keys = [k for k in actual if k not in ("peerDependenciesMeta", "bin")]
    if "bin" in actual and list(actual).index("bin") != list(actual).index("sideEffects") + 1:
        found.append('"bin" must come right after "sideEffects"')
    if keys != list(expected):
        found.append(f"keys {keys} differ from {list(expected)}")
    for field in ("name", "license", "repository", "homepage", "bugs", "type", "publishConfig"):
        if actual.get(field) != expected[field]:
            found.append(f"{field} is {json.dumps(actual.get(field))}, expected {json.dumps(expected[field])}")
    if list(actual.get("scripts", {})) != list(expected["scripts"]):  # a build may copy assets too
        found.append(f"scripts {list(actual.get('scripts', {}))} differ from {list(expected['scripts'])}")
    missing = [f for f in expected["files"] if f not in actual.get("files", [])]  # a package may ship assets too
    if missing:
        found.append(f"files lacks {json.dumps(missing)}")
    keywords = actual.get("keywords", [])
    if keywords[: len(KEYWORDS)] != KEYWORDS or len(keywords) <= len(KEYWORDS):
        found.append(f"keywords {json.dumps(keywords)} must start with {json.dumps(KEYWORDS)} and add words of its own")
    return [f"{path}: {p}" for p in found]


root = Path(__file__).resolve().parents[2]
if sys.argv[1:] == ["--check"]:
    found = [p for path in sorted(root.glob("packages/*/package.json")) for p in problems(path)]
    print("\n".join(found) or "every packages/*/package.json has the shared manifest shape")
    sys.exit(1 if found else 0)

name, description, *deps = sys.argv[1:]
folder = root / "packages" / name
(folder / "src").mkdir(parents=True, exist_ok=True)
(folder / "package.json").write_text(json.dumps(template(name, description, deps), indent=2) + "\n")
for f in ("tsconfig.json", "tsconfig.build.json"):
    (folder / f).write_text((root / "packages" / "backends" / f).read_text())
