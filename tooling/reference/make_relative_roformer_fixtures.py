"""Writes the relative-position and RoFormer fixtures: tiny random-weight Hugging Face folders and their
float64 references.

Run from the repository root with the reference virtual environment:

    .venv-ref/bin/python tooling/reference/make_relative_roformer_fixtures.py

Two transformers versions are involved, because transformers 5 removed BERT's relative position embeddings
(pull request #41170, "Remove relative position embeddings (for bert like models)", merged for v5.0):
transformers 5.17 still accepts `position_embedding_type: "relative_key"` in config.json but builds an absolute
BERT, drops `distance_embedding` from the checkpoint as unexpected keys and adds the absolute position
embeddings. The last release with the relative types is 4.57 (4.57.6 here), so:

  * the RoFormer folders and references come from this process (transformers 5.17, RoFormerModel and
    RoFormerForSequenceClassification);
  * the relative-position folders and references come from a child process of this script that imports
    transformers 4.57.6 from an unpacked wheel (environment variable ATTNKIT_TRANSFORMERS4, default /tmp/tf4:
    `pip download --no-deps transformers==4.57.6 requests urllib3 idna certifi charset_normalizer` and unzip
    the wheels there). torch, tokenizers and huggingface_hub come from the reference environment; the
    import-time dependency-version check of 4.57.6 (which wants huggingface_hub < 1.0 and tokenizers <= 0.23.0)
    is replaced by a no-op, nothing else is changed. Back in this process, each relative folder is also run
    through transformers 5.17 to record how far its (absolute) answer is from the relative one.

It deletes and rewrites, under tooling/reference/fixtures/:
  relative-roformer/<name>/  config.json and model.safetensors written by save_pretrained
  relative-roformer.json     per folder: inputs (a padded batch of two rows, and one row of the longest length the
                             model takes) and float64 last_hidden_state (+ pooler_output, or logits)

Every model is a seeded random init with noise added to every bias and LayerNorm parameter, saved in float32;
the references are the saved folders reloaded (AutoModel / AutoModelForSequenceClassification) and run in
float64 (model.double()).
"""
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
OUT = FIXTURES / "relative-roformer"
GENERATOR = "tooling/reference/make_relative_roformer_fixtures.py"
SEED = 20261127
VOCAB = 99


def import_transformers4():
    """transformers 4.57.x from ATTNKIT_TRANSFORMERS4, without its dependency-version check."""
    sys.path.insert(0, os.environ.get("ATTNKIT_TRANSFORMERS4", "/tmp/tf4"))
    stub = types.ModuleType("transformers.dependency_versions_check")
    stub.dep_version_check = lambda pkg, hint=None: None
    sys.modules["transformers.dependency_versions_check"] = stub
    import transformers

    assert transformers.__version__.startswith("4.57."), transformers.__version__
    return transformers


RELATIVE_CHILD = "--relative-child" in sys.argv
if RELATIVE_CHILD:
    transformers = import_transformers4()
else:
    import transformers

import numpy as np
import torch
import torch.nn as nn

transformers.logging.set_verbosity_error()
torch.set_num_threads(2)


def log(*args):
    print(*args, flush=True)


def floats(x):
    arr = x.detach().cpu().double().numpy()
    assert np.all(np.isfinite(arr))
    return arr.tolist()


def ints(x):
    return x.detach().cpu().numpy().astype(np.int64).tolist()


def perturb(model, scale=0.1):
    """Non-trivial biases and LayerNorm parameters (a wrong wiring must not hide behind zeros and ones)."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.LayerNorm):
                module.weight.add_(scale * torch.randn_like(module.weight))
                module.bias.add_(scale * torch.randn_like(module.bias))
        for name, p in model.named_parameters():
            if name.endswith(".bias") and "LayerNorm" not in name:
                p.add_(scale * torch.randn_like(p))
            if "distance_embedding" in name:
                p.add_(0.5 * torch.randn_like(p))  # distances matter: a transposed or shifted table must show
    return model


def batch(generator, length, pad_token_id, first_id, with_types):
    """Two rows of `length`: the second padded after 4 tokens (ids avoid the padding id)."""
    ids = torch.randint(first_id, VOCAB, (2, length), generator=generator)
    mask = torch.ones(2, length, dtype=torch.long)
    mask[1, 4:] = 0
    ids[1, 4:] = pad_token_id
    inputs = {"input_ids": ids, "attention_mask": mask}
    if with_types:
        types_ = torch.zeros(2, length, dtype=torch.long)
        types_[0, 3:] = 1
        types_[1, 2:4] = 1
        inputs["token_type_ids"] = types_
    return inputs


def full_row(generator, length, first_id):
    return {"input_ids": torch.randint(first_id, VOCAB, (1, length), generator=generator), "attention_mask": torch.ones(1, length, dtype=torch.long)}


def common(**extra):
    return dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37, initializer_range=0.1, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0, **extra)


def run_cases(model, cases):
    out = {}
    with torch.no_grad():
        for label, inputs in cases.items():
            o = model(**inputs)
            entry = {"inputs": {k: ints(v) for k, v in inputs.items()}}
            if hasattr(o, "logits"):
                entry["logits"] = floats(o.logits)
            else:
                entry["last_hidden_state"] = floats(o.last_hidden_state)
                if getattr(o, "pooler_output", None) is not None:
                    entry["pooler_output"] = floats(o.pooler_output)
            out[label] = entry
    return out


def checkpoint_keys(folder):
    from safetensors import safe_open

    with safe_open(str(folder / "model.safetensors"), "pt") as f:
        return sorted(f.keys())


# ---------------------------------------------------------------- relative_key / relative_key_query (transformers 4.57)

RELATIVE_MAX_POSITIONS = 12


def relative_specs():
    t = transformers
    return [
        ("bert-relative-key", t.BertConfig, t.BertModel, dict(position_embedding_type="relative_key"), 0, True),
        ("bert-relative-key-query", t.BertConfig, t.BertModel, dict(position_embedding_type="relative_key_query"), 0, True),
        ("roberta-relative-key-query", t.RobertaConfig, t.RobertaModel, dict(position_embedding_type="relative_key_query", pad_token_id=1, bos_token_id=0, eos_token_id=2), 1, False),
        ("electra-relative-key", t.ElectraConfig, t.ElectraModel, dict(position_embedding_type="relative_key", embedding_size=24), 0, True),
    ]


def make_relative():
    out = {}
    for index, (name, config_class, model_class, extra, pad, with_types) in enumerate(relative_specs()):
        torch.manual_seed(SEED + index)
        config = config_class(**common(max_position_embeddings=RELATIVE_MAX_POSITIONS, **extra))
        model = perturb(model_class(config).eval())
        folder = OUT / name
        model.save_pretrained(str(folder), safe_serialization=True)
        loaded = transformers.AutoModel.from_pretrained(str(folder)).eval().double()
        assert type(loaded).__name__ == model_class.__name__
        assert loaded.config.position_embedding_type == extra["position_embedding_type"]
        generator = torch.Generator().manual_seed(SEED + 50 + index)
        first = pad + 1 if pad > 0 else 1
        # RoBERTa counts positions from the padding id, but with relative positions it never looks them up:
        # the longest input is the distance table's, max_position_embeddings.
        cases = {"batch": batch(generator, 7, pad, first, with_types), "longest": full_row(generator, RELATIVE_MAX_POSITIONS, first)}
        out[name] = {
            "folder": f"relative-roformer/{name}",
            "model_type": config.model_type,
            "model_class": model_class.__name__,
            "position_embedding_type": extra["position_embedding_type"],
            "transformers": transformers.__version__,
            "checkpoint_keys": checkpoint_keys(folder),
            "cases": run_cases(loaded, cases),
        }
        log(f"  {name}: {model_class.__name__} {extra['position_embedding_type']} (transformers {transformers.__version__})")
    return out


# ---------------------------------------------------------------- RoFormer (transformers 5.17)

ROFORMER_MAX_POSITIONS = 24


def make_roformer():
    from transformers import AutoModel, AutoModelForSequenceClassification, RoFormerConfig, RoFormerForSequenceClassification, RoFormerModel

    specs = [
        ("roformer", RoFormerModel, dict(embedding_size=24)),
        ("roformer-rotary-value", RoFormerModel, dict(rotary_value=True, hidden_act="gelu_new")),
        ("roformer-classifier", RoFormerForSequenceClassification, dict(embedding_size=24, num_labels=3, hidden_act="relu")),
    ]
    out = {}
    for index, (name, model_class, extra) in enumerate(specs):
        torch.manual_seed(SEED + 100 + index)
        config = RoFormerConfig(**common(max_position_embeddings=ROFORMER_MAX_POSITIONS, **extra))
        model = perturb(model_class(config).eval())
        folder = OUT / name
        model.save_pretrained(str(folder))
        auto = AutoModelForSequenceClassification if "num_labels" in extra else AutoModel
        loaded = auto.from_pretrained(str(folder)).eval().double()
        assert type(loaded).__name__ == model_class.__name__
        generator = torch.Generator().manual_seed(SEED + 150 + index)
        cases = {"batch": batch(generator, 9, 0, 1, True), "longest": full_row(generator, ROFORMER_MAX_POSITIONS, 1)}
        out[name] = {
            "folder": f"relative-roformer/{name}",
            "model_type": config.model_type,
            "model_class": model_class.__name__,
            "rotary_value": config.rotary_value,
            "embedding_size": config.embedding_size,
            "transformers": transformers.__version__,
            "checkpoint_keys": checkpoint_keys(folder),
            "cases": run_cases(loaded, cases),
        }
        log(f"  {name}: {model_class.__name__} rotary_value={config.rotary_value} embedding_size={config.embedding_size}")
    return out


def transformers5_gap(relative):
    """How far transformers 5.17's reading of each relative folder (an absolute BERT) is from the relative answer."""
    from transformers import AutoModel

    gaps = {}
    for name, entry in relative.items():
        model = AutoModel.from_pretrained(str(FIXTURES / entry["folder"])).eval().double()
        inputs = {k: torch.tensor(v) for k, v in entry["cases"]["batch"]["inputs"].items()}
        with torch.no_grad():
            absolute = model(**inputs).last_hidden_state
        gaps[name] = float((absolute - torch.tensor(entry["cases"]["batch"]["last_hidden_state"])).abs().max())
        assert gaps[name] > 1e-2, (name, gaps[name])
    return gaps


def main():
    if RELATIVE_CHILD:
        with open(sys.argv[-1], "w") as f:
            json.dump(make_relative(), f)
        return
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    log(f"{GENERATOR}: torch {torch.__version__}, transformers {transformers.__version__}")
    partial = OUT / "relative.partial.json"
    subprocess.run([sys.executable, __file__, "--relative-child", str(partial)], check=True)
    relative = json.loads(partial.read_text())
    partial.unlink()
    gaps = transformers5_gap(relative)
    for name, gap in gaps.items():
        relative[name]["transformers5_absolute_max_abs_diff"] = gap
        log(f"  {name}: transformers {transformers.__version__} reads it as absolute BERT, max abs diff {gap:.3f}")
    payload = {**relative, **make_roformer()}
    path = FIXTURES / "relative-roformer.json"
    path.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    total = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file()) + path.stat().st_size
    log(f"relative-roformer.json: {path.stat().st_size / 1e3:.1f} kB; total {total / 1e3:.1f} kB")


if __name__ == "__main__":
    main()
