"""Writes a sharded checkpoint fixture: the `families/bert` folder loaded with transformers and saved again
with save_pretrained(max_shard_size=...), so that its weights sit in several shards listed by
model.safetensors.index.json, exactly as transformers writes large models.

Run from the repository root with the reference virtual environment:

    .venv-ref/bin/python tooling/reference/make_sharded_fixture.py

It deletes and rewrites tooling/reference/fixtures/families-sharded/bert/ and
tooling/reference/fixtures/families-sharded.json (the shard names, and the float64 last_hidden_state and
pooler_output of the reloaded sharded model on the families.json inputs of `bert`).
"""
import json
import shutil
from pathlib import Path

import torch
from transformers import AutoModel

ROOT = Path(__file__).resolve().parent / "fixtures"
SOURCE = ROOT / "families" / "bert"
TARGET = ROOT / "families-sharded" / "bert"


def main() -> None:
    shutil.rmtree(TARGET, ignore_errors=True)
    model = AutoModel.from_pretrained(SOURCE, dtype=torch.float32)
    model.save_pretrained(TARGET, max_shard_size="40KB")
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(SOURCE / name, TARGET / name)
    index = json.loads((TARGET / "model.safetensors.index.json").read_text())
    shards = sorted(set(index["weight_map"].values()))
    assert len(shards) > 2, shards
    assert not (TARGET / "model.safetensors").exists()

    reloaded = AutoModel.from_pretrained(TARGET, dtype=torch.float32).double().eval()
    inputs = json.loads((ROOT / "families.json").read_text())["bert"]["inputs"]
    with torch.no_grad():
        out = reloaded(**{k: torch.tensor(v) for k, v in inputs.items()})
    reference = {
        "folder": "families-sharded/bert",
        "source": "families/bert",
        "shards": shards,
        "inputs": inputs,
        "last_hidden_state": out.last_hidden_state.tolist(),
        "pooler_output": out.pooler_output.tolist(),
    }
    (ROOT / "families-sharded.json").write_text(json.dumps(reference) + "\n")
    print(f"wrote {TARGET} ({len(shards)} shards)")


if __name__ == "__main__":
    main()
