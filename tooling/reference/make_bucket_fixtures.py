"""MPNet's relative position buckets from transformers itself (MPNetEncoder.relative_position_bucket),
for every relative distance a sequence of up to 600 tokens has, with 32 and 64 buckets.
Run: .venv-ref/bin/python tooling/reference/make_bucket_fixtures.py  (writes fixtures/mpnet-buckets.json)"""
import json
from pathlib import Path

import torch
from transformers.models.mpnet.modeling_mpnet import MPNetEncoder

out = {}
for buckets in (32, 64):
    relative = torch.arange(-599, 600)  # key position - query position
    values = MPNetEncoder.relative_position_bucket(relative, num_buckets=buckets)
    out[str(buckets)] = {"relative": relative.tolist(), "bucket": values.tolist()}
path = Path(__file__).parent / "fixtures" / "mpnet-buckets.json"
path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
print(f"wrote {path}")
