"""Writes tooling/reference/fixtures/masked-lm.json and the model folder fixtures/bert-mlm/:
reference values for attnkit's BertForMaskedLM and masked-language-model training.

Run from the repository root with the reference virtual environment:

    .venv-ref/bin/python tooling/reference/make_masked_lm_fixtures.py

- ``bert-mlm/``: a randomly initialised (fixed seed, float32) transformers ``BertForMaskedLM``
  written by ``save_pretrained``: ``bert.*`` without a pooler, ``cls.predictions.*``, the decoder
  tied to the word embeddings (so not stored).
- ``logits``: the model's logits ``[B, T, V]`` for padded inputs, computed in float64, eval mode.
- ``loss``: transformers' own loss (``model(..., labels=labels).loss``: cross-entropy over the
  positions whose label is not -100, averaged) and its gradients with respect to a set of
  parameters, the tied word embeddings among them (they receive both the input and decoder gradients).
- ``loss-one``: the same with a single labelled position.

Weights are float32 values (exact in TypeScript); every forward and gradient is computed in float64.
No network is used.
"""
import json
import math
import shutil
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file
from transformers import BertConfig, BertForMaskedLM

OUT = Path(__file__).resolve().parent / "fixtures"
GENERATOR = "tooling/reference/make_masked_lm_fixtures.py"
GRADIENTS = [
    "bert.embeddings.word_embeddings.weight",
    "bert.embeddings.position_embeddings.weight",
    "bert.encoder.layer.0.attention.self.query.weight",
    "bert.encoder.layer.1.output.dense.weight",
    "cls.predictions.transform.dense.weight",
    "cls.predictions.transform.dense.bias",
    "cls.predictions.transform.LayerNorm.weight",
    "cls.predictions.bias",
]


def t(x):
    x = x.detach().cpu()
    if not x.is_floating_point():
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.double().flatten().tolist()]}


def number(v):
    if math.isfinite(v):
        return float(v)
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def build():
    torch.manual_seed(2026)
    config = BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32,
                        max_position_embeddings=24, type_vocab_size=2, hidden_act="gelu", initializer_range=0.2,
                        hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1, attn_implementation="eager")
    model = BertForMaskedLM(config)
    with torch.no_grad():  # non-trivial biases and norms, so every parameter matters
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.normal_(0.0, 0.1)
            elif "LayerNorm.weight" in name:
                p.copy_(1 + 0.1 * torch.randn(p.shape))
    assert model.cls.predictions.decoder.weight is model.bert.embeddings.word_embeddings.weight
    return model


def save(model, folder):
    if folder.exists():
        shutil.rmtree(folder)
    model.save_pretrained(folder)
    for path in folder.iterdir():
        if path.name not in ("config.json", "model.safetensors"):
            path.unlink()
    saved = load_file(folder / "model.safetensors")
    assert not any(k.startswith("bert.pooler") for k in saved) and "cls.predictions.decoder.weight" not in saved, sorted(saved)


def inputs():
    ids = torch.tensor([[2, 7, 31, 4, 17, 44, 3], [2, 12, 4, 29, 3, 0, 0]])
    mask = torch.tensor([[1] * 7, [1, 1, 1, 1, 1, 0, 0]])
    types = torch.tensor([[0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0]])
    return ids, mask, types


def loss_case(model, ids, mask, types, labels):
    model.zero_grad()
    out = model(input_ids=ids, attention_mask=mask, token_type_ids=types, labels=labels)
    out.loss.backward()
    params = dict(model.named_parameters())
    return {
        "inputs": {"input_ids": t(ids), "attention_mask": t(mask), "token_type_ids": t(types), "labels": t(labels)},
        "outputs": {"loss": t(out.loss), **{f"grad.{name}": t(params[name].grad) for name in GRADIENTS}},
    }


def main():
    model = build()
    save(model, OUT / "bert-mlm")
    model = model.double().eval()
    ids, mask, types = inputs()
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits
    cases = {"logits": {"inputs": {"input_ids": t(ids), "attention_mask": t(mask), "token_type_ids": t(types)}, "outputs": {"logits": t(logits)}}}
    labels = torch.full_like(ids, -100)
    labels[0, 2], labels[0, 5], labels[1, 1], labels[1, 3] = 31, 9, 12, 29
    cases["loss"] = loss_case(model, ids, mask, types, labels)
    one = torch.full_like(ids, -100)
    one[1, 2] = 4
    cases["loss-one"] = loss_case(model, ids, mask, types, one)
    payload = {"generator": GENERATOR, "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases}
    path = OUT / "masked-lm.json"
    path.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    print(f"masked-lm.json: {len(cases)} cases, {path.stat().st_size / 1e6:.3f} MB; loss {cases['loss']['outputs']['loss']['data']}")


if __name__ == "__main__":
    main()
