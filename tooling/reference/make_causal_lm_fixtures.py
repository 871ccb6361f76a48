"""Writes tooling/reference/fixtures/causal-lm.json: transformers' causal-language-model loss and its
gradients for attnkit's causalLanguageModelLoss.

Run from the repository root with the reference virtual environment (torch, transformers 5.17):

    .venv-ref/bin/python tooling/reference/make_causal_lm_fixtures.py

It reads the decoder fixture folders tooling/reference/fixtures/decoders/llama and /gpt2 (written by
make_decoder_fixtures.py; GPT-2's head is tied to wte, Llama's is not) and their tokenizers, and records
for each case the inputs (input_ids, attention_mask, labels as given to attnkit) and, from the folder
loaded with AutoModelForCausalLM in float64 (sdpa attention, eval mode):
  loss                    model(input_ids, attention_mask, labels=reference_labels).loss: transformers'
                          ForCausalLMLoss (labels shifted left by one inside, -100 ignored, mean over the rest)
  grad.<name>             d loss / d parameter for a few parameters under attnkit's names (GPT-2's Conv1D
                          weights are [in, out] in transformers and transposed here to attnkit's Linear [out, in])
  grad_sum_of_squares     the sum of the squares of every parameter's gradient (each parameter once; the
                          tied wte once, with both its input and head gradients)
reference_labels is what attnkit's attentionMask option means, made explicit: labels where the mask is 0
become -100, and so does the label of the first token after padding (its prediction would come from a
padding position). With right padding that is exactly the collator's labels (labels[padding] = -100).

Cases:
  llama-right-padded   two texts, right-padded with eos, labels = input_ids, the mask
  llama-prompt-ignored one row, the first four labels -100 (a prompt not trained on), no mask
  llama-left-padded    two texts, left-padded, labels = input_ids, the mask
  gpt2-right-padded    two texts, right-padded with eos, labels = input_ids, the mask (tied head)
No network is used; the output is deterministic.
"""
import json
import math
import os
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
GENERATOR = "tooling/reference/make_causal_lm_fixtures.py"
TEXTS = ["The cat sat on the mat", "Hello world, the quick brown fox jumps over the lazy dog"]

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

GRADIENTS = {
    "llama": ["model.layers.0.self_attn.q_proj.weight", "model.layers.0.self_attn.k_proj.weight", "model.layers.1.mlp.down_proj.weight", "model.layers.0.input_layernorm.weight", "model.norm.weight"],
    "gpt2": ["transformer.wte.weight", "transformer.h.0.attn.c_attn.weight", "transformer.h.0.ln_1.bias", "transformer.ln_f.weight"],
}
CONV1D = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def number(v):
    if math.isfinite(v):
        return float(f"{v:.9g}")
    return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")


def t(x):
    x = x.detach().cpu()
    if not x.is_floating_point():
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.double().flatten().tolist()]}


def padded(rows, pad_id, side):
    width = max(len(r) for r in rows)
    ids = [([pad_id] * (width - len(r)) + r) if side == "left" else (r + [pad_id] * (width - len(r))) for r in rows]
    mask = [([0] * (width - len(r)) + [1] * len(r)) if side == "left" else ([1] * len(r) + [0] * (width - len(r))) for r in rows]
    return torch.tensor(ids), torch.tensor(mask)


def reference_labels(labels, mask):
    """attnkit's attentionMask option made explicit: -100 where the mask is 0 and where the token before is padding."""
    out = labels.masked_fill(mask == 0, -100)
    before = torch.nn.functional.pad(mask, (1, 0), value=1)[:, :-1]  # mask of the position that predicts each label
    return out.masked_fill(before == 0, -100)


def case(family, ids, mask, labels):
    folder = FIXTURES / "decoders" / family
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float64, attn_implementation="sdpa").eval()
    given = reference_labels(labels, mask) if mask is not None else labels
    out = model(input_ids=ids, attention_mask=mask, labels=given)
    assert torch.isfinite(out.loss), (family, out.loss)
    out.loss.backward()
    params = dict(model.named_parameters())
    grads = {}
    for name in GRADIENTS[family]:
        g = params[name].grad
        grads[f"grad.{name}"] = t(g.t() if name.endswith(CONV1D) else g)
    total = sum(float((p.grad.double() ** 2).sum()) for p in model.parameters() if p.grad is not None)
    inputs = {"input_ids": t(ids), "labels": t(labels)}
    if mask is not None:
        inputs["attention_mask"] = t(mask)
    return {
        "folder": f"decoders/{family}",
        "inputs": inputs,
        "reference_labels": t(given),
        "outputs": {"loss": t(out.loss), "grad_sum_of_squares": t(torch.tensor(total, dtype=torch.float64)), **grads},
        "counted_labels": int((given[:, 1:] != -100).sum()),
    }


def main():
    torch.manual_seed(0)
    cases = {}
    llama = AutoTokenizer.from_pretrained(FIXTURES / "decoders" / "llama")
    gpt2 = AutoTokenizer.from_pretrained(FIXTURES / "decoders" / "gpt2")
    rows = [llama(text).input_ids for text in TEXTS]
    ids, mask = padded(rows, llama.eos_token_id, "right")
    cases["llama-right-padded"] = case("llama", ids, mask, ids.clone())
    one = torch.tensor([rows[1]])
    labels = one.clone()
    labels[:, :4] = -100
    cases["llama-prompt-ignored"] = case("llama", one, None, labels)
    ids, mask = padded(rows, llama.eos_token_id, "left")
    cases["llama-left-padded"] = case("llama", ids, mask, ids.clone())
    rows = [gpt2(text).input_ids for text in TEXTS]
    ids, mask = padded(rows, gpt2.eos_token_id, "right")
    cases["gpt2-right-padded"] = case("gpt2", ids, mask, ids.clone())
    payload = {"generator": GENERATOR, "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases}
    path = FIXTURES / "causal-lm.json"
    path.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
    for name, c in cases.items():
        print(f"  {name}: loss {c['outputs']['loss']['data'][0]:.6f} over {c['counted_labels']} labels, shape {c['inputs']['input_ids']['shape']}")
    print(f"causal-lm.json: {len(cases)} cases, {path.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
