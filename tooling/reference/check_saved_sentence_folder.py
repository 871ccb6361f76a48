"""Loads the folders that attnkit's saveSentenceFolder wrote (fixtures/attnkit-saved/<name>/) with
sentence-transformers and records what it makes of them, so the TypeScript tests can check, without
Python, that sentence-transformers really loads attnkit's folders and embeds as attnkit does.

Run from the repository root with the reference virtual environment (sentence-transformers 6.0.1,
transformers 5.17, torch 2.13):

    .venv-ref/bin/python tooling/reference/check_saved_sentence_folder.py

(Regenerate the folders first, if needed, with
 ATTNKIT_WRITE_SAVED_FIXTURES=1 pnpm exec vitest run ... src/checkpoint/save-sentence-folder.test.ts
 in packages/train.)

It writes tooling/reference/fixtures/attnkit-saved.json: for every folder, the texts, the float64
embeddings of SentenceTransformer(folder).encode (the model run in float64), the folder's file list,
and the file list SentenceTransformer.save writes when it saves the loaded model again (the layout
sentence-transformers itself writes for the same kind of model). No network is used.
"""
import json
import tempfile
from pathlib import Path

import torch
from sentence_transformers import SentenceTransformer

ROOT = Path(__file__).resolve().parent
SAVED = ROOT / "fixtures" / "attnkit-saved"
OUT = ROOT / "fixtures" / "attnkit-saved.json"
TEXTS = [
    "Hello world",
    "The quick brown fox jumps over the lazy dog while the people in the city are reading a long book.",
    "a kitten is sitting on the mat",
    "Größe der Straße",
    "",
]


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def main() -> None:
    torch.manual_seed(0)
    result = {}
    for folder in sorted(p for p in SAVED.iterdir() if p.is_dir()):
        model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
        model.eval()
        float32 = model.encode(TEXTS, batch_size=2, convert_to_numpy=True)
        model.to(torch.float64)
        embeddings = model.encode(TEXTS, batch_size=2, convert_to_numpy=True)
        assert abs(embeddings - float32).max() < 1e-5, "float32 and float64 runs disagree"
        with tempfile.TemporaryDirectory() as tmp:
            model.to(torch.float32)
            model.save(tmp)
            saved = files(Path(tmp))
        result[folder.name] = {
            "modules": [type(m).__name__ for m in model],
            "max_seq_length": model.max_seq_length,
            "texts": TEXTS,
            "embeddings": embeddings.tolist(),
            "attnkit_files": files(folder),
            "sentence_transformers_save_files": saved,
        }
        print(f"{folder.name}: {result[folder.name]['modules']}, max_seq_length {model.max_seq_length}, {embeddings.shape}")
    OUT.write_text(json.dumps(result, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
