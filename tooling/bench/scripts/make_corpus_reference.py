"""The float64 reference of the peer bench's corpus workload (src/peer/corpus/).

Usage: .venv-ref/bin/python tooling/bench/scripts/make_corpus_reference.py <model folder> <texts.json>
Run by bench:peer when <model folder>/corpus-reference.json is missing: the bench picks the 2 000 WordNet texts
(src/peer/corpus/corpus-texts.ts) and writes them to <texts.json> ({"texts": [...], "selection": {...}}); this
script tokenizes them with transformers' fast tokenizer on the folder's tokenizer.json (truncation at 128), runs
transformers' BertModel in float64 on the folder's model.safetensors (peer_models.hf_model: the same module as the
8 x 128 reference), mean pooling over the attention mask, L2 normalize (pipeline('feature-extraction')'s
{ pooling: 'mean', normalize: true }), and writes <model folder>/corpus-reference.json: the texts, each text's
ids (no padding) and its float64 embedding. Texts run 64 at a time sorted by length (padding is masked out, so
the batching does not change the float64 numbers beyond rounding).
Needs torch and transformers: the reference venv (.venv-ref, see the README)."""
import json
import sys
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file
from transformers import PreTrainedTokenizerFast

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_models import LENGTH, hf_model, mean_pool_normalize  # noqa: E402


def main(folder, texts_file):
    given = json.loads(texts_file.read_text())
    texts = given["texts"]
    config = json.loads((folder / "config.json").read_text())
    tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"), model_max_length=LENGTH,
                                        cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]", unk_token="[UNK]", mask_token="[MASK]")
    ids = tokenizer(texts, truncation=True, max_length=LENGTH)["input_ids"]
    model = hf_model(load_file(folder / "model.safetensors"), config).double()
    order = sorted(range(len(texts)), key=lambda i: len(ids[i]))
    embeddings = [None] * len(texts)
    with torch.no_grad():
        for start in range(0, len(order), 64):
            rows = order[start:start + 64]
            width = max(len(ids[r]) for r in rows)
            input_ids = torch.tensor([ids[r] + [tokenizer.pad_token_id] * (width - len(ids[r])) for r in rows])
            mask = torch.tensor([[1] * len(ids[r]) + [0] * (width - len(ids[r])) for r in rows])
            hidden = model(input_ids=input_ids, attention_mask=mask, token_type_ids=torch.zeros_like(input_ids)).last_hidden_state
            for r, e in zip(rows, mean_pool_normalize(hidden, mask).tolist()):
                embeddings[r] = e
    lengths = [len(i) for i in ids]
    (folder / "corpus-reference.json").write_text(json.dumps({
        "description": "tooling/bench/scripts/make_corpus_reference.py: transformers BertModel float64, mean pooling over the attention mask, L2 normalize",
        "selection": given.get("selection"),
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "length": LENGTH,
        "texts": texts,
        "inputIds": ids,
        "embeddings": embeddings,
    }) + "\n")
    print(f"wrote {folder / 'corpus-reference.json'}: {len(texts)} texts, {min(lengths)}-{max(lengths)} tokens, {sum(lengths)} in all")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_corpus_reference.py <model folder> <texts.json>")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
