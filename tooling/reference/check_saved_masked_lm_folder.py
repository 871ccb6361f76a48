"""Loads the folder that attnkit's saveMaskedLMFolder wrote (fixtures/attnkit-saved-mlm/) with
transformers' BertForMaskedLM and records what it makes of it, so the TypeScript tests can check,
without Python, that transformers really loads attnkit's masked-LM folders and predicts as attnkit does.

Run from the repository root with the reference virtual environment (transformers 5.17, torch 2.13):

    .venv-ref/bin/python tooling/reference/check_saved_masked_lm_folder.py

(Regenerate the folder first, if needed, with
 ATTNKIT_WRITE_SAVED_FIXTURES=1 pnpm exec vitest run --config ../../tooling/vitest-config/node.config.ts src/checkpoint/save-masked-lm-folder.test.ts
 in packages/train.)

It writes tooling/reference/fixtures/attnkit-saved-mlm.json: the loading report (missing, unexpected
and mismatched keys), the texts, their ids from the folder's tokenizer (AutoTokenizer) and the float64
logits of BertForMaskedLM.from_pretrained(folder). No network is used.
"""
import json
from pathlib import Path

import torch
import transformers
from transformers import AutoTokenizer, BertForMaskedLM

ROOT = Path(__file__).resolve().parent
SAVED = ROOT / "fixtures" / "attnkit-saved-mlm"
OUT = ROOT / "fixtures" / "attnkit-saved-mlm.json"
TEXTS = ["the cat eats an apple", "a kid [MASK] the book"]


def main():
    model, info = BertForMaskedLM.from_pretrained(SAVED, output_loading_info=True)
    assert model.cls.predictions.decoder.weight.data_ptr() == model.bert.embeddings.word_embeddings.weight.data_ptr()
    model = model.double().eval()
    tokenizer = AutoTokenizer.from_pretrained(SAVED)
    batch = tokenizer(TEXTS, padding=True, return_tensors="pt")
    with torch.no_grad():
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], token_type_ids=batch["token_type_ids"]).logits
    payload = {
        "generator": "tooling/reference/check_saved_masked_lm_folder.py",
        "transformers": transformers.__version__,
        "missing_keys": sorted(info["missing_keys"]),
        "unexpected_keys": sorted(info["unexpected_keys"]),
        "mismatched_keys": sorted(str(k) for k in info["mismatched_keys"]),
        "texts": TEXTS,
        "input_ids": batch["input_ids"].tolist(),
        "attention_mask": batch["attention_mask"].tolist(),
        "logits": logits.tolist(),
    }
    OUT.write_text(json.dumps(payload) + "\n")
    print(f"{OUT.name}: missing {payload['missing_keys']}, unexpected {payload['unexpected_keys']}, logits {list(logits.shape)}")


if __name__ == "__main__":
    main()
