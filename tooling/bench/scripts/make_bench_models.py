#!/usr/bin/python3
"""Writes the benchmark models (not committed; `pnpm bench` runs this when they are missing):
  models/minilm-shaped/  a MiniLM-L6-shaped BERT (hidden 384, 6 layers, 12 heads, intermediate 1536,
                         vocab 30522, 512 positions), fixed seed, as config.json + model.safetensors
                         + model.onnx (torch.onnx.export from the same weights, dynamic batch and length)
                         and, for the transformers.js peer bench (src/peer/), the same weights as
                         transformers.js loads a model folder: tokenizer.json + tokenizer_config.json,
                         onnx/model.onnx (last_hidden_state only) and onnx/model_quantized.onnx (q8, made as
                         transformers.js' published models are: see quantize_q8), plus peer-reference.json
                         (the benchmark texts, their token ids and the float64 PyTorch embeddings)
  models/attnkit-tiny-bert.onnx  the embedded model, exported the same way
Needs torch: Debian's python3-torch (/usr/bin/python3 tooling/bench/scripts/make_bench_models.py) or the
reference venv (.venv-ref/bin/python tooling/bench/scripts/make_bench_models.py; see the README). The peer
files also need transformers, onnx and onnxruntime (the reference venv has them): without them they are
skipped with a message (`--peer-only` writes just those, from the safetensors already there)."""
import inspect
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tooling" / "reference"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import bert_reference as bert  # noqa: E402

OUT = ROOT / "tooling" / "bench" / "models"


class Exported(torch.nn.Module):
    """BertModel with (input_ids, attention_mask, token_type_ids) -> (last_hidden_state, pooler_output)."""
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        out = self.model(input_ids, attention_mask, token_type_ids)
        return out["last_hidden_state"], out["pooler_output"]


def export(model, path):
    ids = torch.randint(1, 1000, (2, 16))
    torch.onnx.export(Exported(model).eval(), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(path),
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["last_hidden_state", "pooler_output"],
                      dynamic_axes={n: {0: "batch", 1: "sequence"} for n in ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]} | {"pooler_output": {0: "batch"}},
                      opset_version=14, do_constant_folding=True,
                      # torch >= 2.9 defaults to the dynamo exporter (external weight files, opset 18): keep one self-contained file
                      **({"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}))


def write_peer_files(folder):
    try:
        from peer_models import write_peer_files as write
    except ImportError as error:
        print(f"skipped the transformers.js peer files ({error}): run this script with .venv-ref/bin/python")
        return
    write(folder)


def load_reference(folder):
    """The embedded model as the reference BertModel, from its safetensors (F16) file."""
    raw = (folder / "model.safetensors").read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + size])
    config = json.loads((folder / "config.json").read_text())
    model = bert.BertModel(config)
    state = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        begin, end = spec["data_offsets"]
        dtype = {"F16": torch.float16, "F32": torch.float32}[spec["dtype"]]
        state[name] = torch.frombuffer(bytearray(raw[8 + size + begin:8 + size + end]), dtype=dtype).reshape(spec["shape"]).float()
    model.load_state_dict(state)
    return model.eval()


if __name__ == "__main__":
    if "--peer-only" in sys.argv:
        write_peer_files(OUT / "minilm-shaped")
        sys.exit(0)
    OUT.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(384)
    config = bert.config(30522, 384, 6, 12, 1536, 512, types=2)
    model = bert.BertModel(config)
    bert.init_sharp(model, 384)
    model.eval()
    folder = OUT / "minilm-shaped"
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    bert.save_safetensors(folder / "model.safetensors", model.state_dict())
    export(model, folder / "model.onnx")
    export(load_reference(ROOT / "packages" / "models" / "assets" / "attnkit-tiny-bert"), OUT / "attnkit-tiny-bert.onnx")
    print(f"wrote {folder} and {OUT / 'attnkit-tiny-bert.onnx'}")
    write_peer_files(folder)
