"""Reads the int8 folders that attnkit's saveInt8Folder wrote (fixtures/attnkit-int8/<name>/) with
Python's safetensors and torch, and records what they hold, so the TypeScript tests can check,
without Python, that the I8 files are real safetensors int8 tensors in compressed-tensors'
int-quantized layout and that attnkit's int8 model computes what the stored weights mean.

Run from the repository root with the reference virtual environment (transformers 5.17, torch,
safetensors):

    .venv-ref/bin/python tooling/reference/check_int8_folder.py

(Regenerate the folders first, if needed, with
 ATTNKIT_WRITE_INT8_FIXTURES=1 pnpm exec vitest run ... src/checkpoint/save-int8-folder.test.ts
 in packages/train.)

For every folder it opens model.safetensors with safetensors.safe_open(framework="pt"), checks
that each `<linear>.weight` of dtype torch.int8 is [out, in] with a `<linear>.weight_scale` of
torch.float32 [out, 1], dequantizes as compressed-tensors does for symmetric channel-wise int8
(weight = int8 * scale, no zero point), measures the rounding error against the float folder it
was made from (in units of each row's scale: at most 0.5 for round-to-nearest), and runs
transformers' BertModel (float64) on the dequantized weights. It writes
tooling/reference/fixtures/attnkit-int8.json. compressed-tensors itself is not installed here, so
its decompression is reproduced, not called. No network is used.
"""
import json
from pathlib import Path

import torch
from safetensors import safe_open
from transformers import BertConfig, BertModel

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
INT8 = FIXTURES / "attnkit-int8"
SOURCES = {"bert-dense": FIXTURES / "sentence" / "bert-dense", "bert-plain": FIXTURES / "families" / "bert"}
OUT = FIXTURES / "attnkit-int8.json"
INPUT_IDS = [[2, 5, 7, 9, 3, 11], [2, 8, 13, 21, 3, 1]]


def tensors(path: Path) -> dict[str, torch.Tensor]:
    with safe_open(str(path), framework="pt") as f:
        return {name: f.get_tensor(name) for name in f.keys()}


def main() -> None:
    result = {}
    for name, source in SOURCES.items():
        folder = INT8 / name
        stored = tensors(folder / "model.safetensors")
        original = tensors(source / "model.safetensors")
        config = json.loads((folder / "config.json").read_text())
        quantization = config.pop("quantization_config")
        assert quantization["quant_method"] == "compressed-tensors" and quantization["format"] == "int-quantized"
        dequantized, listed, worst = {}, [], 0.0
        for key, value in stored.items():
            if key.endswith("_scale"):
                continue
            if value.dtype != torch.int8:
                dequantized[key] = value.to(torch.float64)
                continue
            scale = stored[f"{key}_scale"]
            assert value.dim() == 2 and scale.dtype == torch.float32 and tuple(scale.shape) == (value.shape[0], 1), key
            listed.append({"name": key, "dtype": str(value.dtype), "shape": list(value.shape), "scale_shape": list(scale.shape)})
            weight = value.to(torch.float64) * scale.to(torch.float64)  # compressed-tensors' dequantize, symmetric
            dequantized[key] = weight
            steps = (original[key].to(torch.float64) - weight).abs() / scale.to(torch.float64).clamp_min(1e-30)
            worst = max(worst, float(steps.max()))
        model = BertModel(BertConfig.from_dict(config), add_pooling_layer=True).to(torch.float64).eval()
        missing, unexpected = model.load_state_dict(dequantized, strict=False)
        assert not [k for k in missing if "position_ids" not in k], missing
        assert not unexpected, unexpected
        with torch.no_grad():
            hidden = model(input_ids=torch.tensor(INPUT_IDS)).last_hidden_state
        result[name] = {
            "int8_tensors": sorted(listed, key=lambda t: t["name"]),
            "max_rounding_error_in_scales": worst,
            "input_ids": INPUT_IDS,
            "last_hidden_state": hidden.tolist(),
        }
        print(f"{name}: {len(listed)} int8 tensors, rounding ≤ {worst:.4f} scale")
    OUT.write_text(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
