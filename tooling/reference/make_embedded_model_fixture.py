"""Reference outputs of the demo model that ships with @attnkit/models (packages/models/assets/attnkit-tiny-bert,
trained by packages/train/scripts/train-demo-model.ts), computed by Hugging Face transformers' BertModel
loading that folder, in float64 from its float16 weights: fixtures/embedded-bert.json (the format
make_fixtures.py writes). Run after the model changes:
  .venv-ref/bin/python tooling/reference/make_embedded_model_fixture.py"""
import json
import math
from pathlib import Path

import torch
import transformers
from transformers import BertModel

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "packages" / "models" / "assets" / "attnkit-tiny-bert"
OUT = Path(__file__).resolve().parent / "fixtures" / "embedded-bert.json"


def number(v):
    return float(v) if math.isfinite(v) else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))


def t(x):
    if x.dtype in (torch.int32, torch.int64):
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.flatten().tolist()]}
    return {"shape": list(x.shape), "dtype": "float32", "data": [number(v) for v in x.float().flatten().tolist()]}


model = BertModel.from_pretrained(FOLDER, torch_dtype=torch.float64, attn_implementation="eager").eval()
cases = {}
for name, ids, types in [
    ("hello world", [[101, 7592, 2088, 102]], [[0, 0, 0, 0]]),
    ("pair with padding", [[101, 1996, 4937, 102, 2009, 102, 0, 0], [101, 2023, 2003, 1037, 3231, 1012, 102, 0]], [[0, 0, 0, 0, 1, 1, 0, 0], [0] * 8]),
]:
    input_ids = torch.tensor(ids)
    attention_mask = (input_ids != 0).long()
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=torch.tensor(types))
    cases[name] = {"inputs": {"input_ids": t(input_ids), "attention_mask": t(attention_mask), "token_type_ids": t(torch.tensor(types))},
                   "outputs": {"last_hidden_state": t(out.last_hidden_state), "pooler_output": t(out.pooler_output)}}
payload = {"generator": "tooling/reference/make_embedded_model_fixture.py", "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases}
OUT.write_text(json.dumps(payload, separators=(",", ":"), allow_nan=False) + "\n")
print(f"{OUT.name}: {len(cases)} cases from {FOLDER}")
