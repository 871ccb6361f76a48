"""Writes the retrieval fixtures: sequence-classification folders of every encoder family,
sentence-transformers CrossEncoder folders, and references for their logits, CrossEncoder.predict /
rank, and sentence_transformers.util.semantic_search.

Run from the repository root with the reference virtual environment (torch, transformers 5.17,
sentence-transformers 6.0.1), after make_family_fixtures.py (whose tokenizers it reuses):

    .venv-ref/bin/python tooling/reference/make_rerank_fixtures.py

It deletes and rewrites, under tooling/reference/fixtures/rerank/:
  classifiers/<family>/   save_pretrained of a seeded random <Family>ForSequenceClassification (bert,
                          distilbert, roberta, xlm-roberta, electra, mpnet: 2 layers, 16 wide, a head of
                          1 to 4 labels; biases and LayerNorms perturbed so a wrong wiring shows), with the
                          tokenizer of tooling/reference/fixtures/families/<family> (its save_pretrained)
  cross-encoders/<name>/  folders written by CrossEncoder(<classifier folder>, ...).save(dir) (config.json,
                          config_sentence_transformers.json with activation_fn / prompts,
                          sentence_bert_config.json, modules.json, tokenizer with model_max_length = the
                          max_length given), and electra-v4: a classifier folder as sentence-transformers 4/5
                          wrote it (config.json's "sentence_transformers": {"activation_fn": ...}); the
                          model card (README.md), which holds nothing a loader reads, is left out
  classifiers.json        per classifier: config facts (num_labels, id2label, problem_type), tokenizer ids of
                          single texts and of pairs (padded), and float64 logits [B, num_labels]
  cross-encoders.json     per CrossEncoder folder (and two plain classifier folders read as CrossEncoders):
                          the activation sentence-transformers chose, max_seq_length, the ids its preprocess
                          made for every pair (truncation longest_first at max_seq_length), and float64
                          predict(...) (default activation, identity, apply_softmax) and rank(...) results
  semantic-search.json    seeded random float32 query and corpus embeddings (some corpus rows repeated, so
                          scores tie exactly) and util.semantic_search results for several top_k, cos_sim and
                          dot_score, and small query / corpus chunk sizes (float32, as the library computes)

No network is used; the output is byte-for-byte reproducible. References run in float64 (model.double())
except semantic_search, which runs on the float32 embeddings as a user would call it.
"""
import json
import logging
import shutil
import time
import warnings
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import transformers
import sentence_transformers
from sentence_transformers import CrossEncoder
from sentence_transformers.util import cos_sim, dot_score, semantic_search
from transformers import AutoConfig, AutoModelForSequenceClassification, AutoTokenizer

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
FAMILIES = FIXTURES / "families"
OUT = FIXTURES / "rerank"
SEED = 20250307

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()
logging.getLogger("sentence_transformers").setLevel(logging.ERROR)
torch.set_num_threads(2)
assert transformers.__version__ == "5.17.0", transformers.__version__
assert sentence_transformers.__version__ == "6.0.1", sentence_transformers.__version__


def log(*args):
    print(*args, flush=True)


def floats(x):
    """A tensor / array as nested lists of Python floats (float64 values, full precision)."""
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu().double().numpy()
    arr = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("non-finite value in a reference")
    return arr.tolist()


def ints(x):
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu().numpy()
    return np.asarray(x).astype(np.int64).tolist()


def write_json(path, payload):
    path.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n", encoding="utf-8")
    log(f"{path.relative_to(FIXTURES)}: {path.stat().st_size / 1e3:.1f} kB")


# ---------------------------------------------------------------- classifiers

# name: (family fixture, num_labels, config overrides)
CLASSIFIERS = {
    "bert": ("bert", 1, {}),
    "distilbert": ("distilbert", 2, {"id2label": {0: "NEGATIVE", 1: "POSITIVE"}, "label2id": {"NEGATIVE": 0, "POSITIVE": 1}, "problem_type": "single_label_classification"}),
    "roberta": ("roberta", 1, {"problem_type": "regression"}),
    "xlm-roberta": ("xlm-roberta", 3, {"id2label": {0: "contradiction", 1: "entailment", 2: "neutral"}, "label2id": {"contradiction": 0, "entailment": 1, "neutral": 2}}),
    "electra": ("electra", 2, {"classifier_dropout": 0.2}),
    "mpnet": ("mpnet", 1, {}),
}
# Each family's size keys, shrunk to a tiny model (the tokenizer, vocabulary and positions stay the family fixture's).
TINY = {
    "distilbert": {"dim": 16, "n_layers": 2, "n_heads": 2, "hidden_dim": 32, "seq_classif_dropout": 0.3},
    "electra": {"hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 32, "embedding_size": 8},
}
TINY_DEFAULT = {"hidden_size": 16, "num_hidden_layers": 2, "num_attention_heads": 2, "intermediate_size": 32}

SINGLE_TEXTS = ["Hello world!", "The quick brown fox jumps over the lazy dog.", "Ça coûte 12,50 € — très cher!"]
PAIRS = [
    ("How many people live in Berlin?", "Berlin had a population of 3,520,031 in 2019."),
    ("How many people live in Berlin?", "Berlin is well known for its museums."),
    ("Who wrote the book?", "A very long passage about the quick brown fox that jumps over the lazy dog in the city by the river, again and again, until the night falls over the old town and the people go home."),
    ("The cat sat on the mat.", ""),
    ("", "An answer without a question."),
    ("Is this a pair?", "Yes."),
]
QUERY = "How many people live in Berlin?"
DOCUMENTS = [
    "Berlin had a population of 3,520,031 in 2019.",
    "Berlin is well known for its museums.",
    "The quick brown fox jumps over the lazy dog.",
    "Berlin is well known for its museums.",  # a repeated document: its score ties exactly with row 1
    "",
    "In 2019 about 3.5 million people lived in Berlin, the capital and largest city of Germany, by population within city limits.",
]


def perturb(model, scale=0.1):
    """Non-trivial biases and LayerNorm parameters (a wrong wiring must not hide behind zeros and ones)."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, nn.LayerNorm):
                module.weight.add_(scale * torch.randn_like(module.weight))
                if module.bias is not None:
                    module.bias.add_(scale * torch.randn_like(module.bias))
        for name, p in model.named_parameters():
            if name.endswith(".bias") and "LayerNorm" not in name and "layer_norm" not in name:
                p.add_(scale * torch.randn_like(p))
            if "relative_attention_bias" in name:
                p.add_(0.5 * torch.randn_like(p))
    return model


def build_classifier(name, index):
    family, num_labels, overrides = CLASSIFIERS[name]
    config = AutoConfig.from_pretrained(str(FAMILIES / family))
    for key, value in {**TINY.get(family, TINY_DEFAULT), "num_labels": num_labels, "initializer_range": 0.3, **overrides}.items():
        setattr(config, key, value)
    config.architectures = None
    torch.manual_seed(SEED + index)
    return perturb(AutoModelForSequenceClassification.from_config(config)).eval()


def make_classifiers():
    out = {}
    for index, name in enumerate(CLASSIFIERS):
        t0 = time.time()
        folder = OUT / "classifiers" / name
        model = build_classifier(name, index)
        model.save_pretrained(str(folder))
        AutoTokenizer.from_pretrained(str(FAMILIES / CLASSIFIERS[name][0])).save_pretrained(str(folder))
        tok = AutoTokenizer.from_pretrained(str(folder))
        m64 = AutoModelForSequenceClassification.from_pretrained(str(folder)).eval().double()
        m32 = AutoModelForSequenceClassification.from_pretrained(str(folder)).eval()
        assert type(m64).__name__ == type(model).__name__
        config = json.loads((folder / "config.json").read_text())
        entry = {
            "folder": f"rerank/classifiers/{name}",
            "model_type": config["model_type"],
            "model_class": type(m64).__name__,
            "num_labels": m64.config.num_labels,
            "id2label": {str(k): v for k, v in m64.config.id2label.items()},
            "label2id": dict(m64.config.label2id),
            "problem_type": m64.config.problem_type,
            "checkpoint_keys": sorted(k for k in m64.state_dict() if not k.endswith("position_ids")),
            "cases": {},
        }
        max_diff = 0.0
        for case, batch in (("single", tok(SINGLE_TEXTS, padding=True, return_tensors="pt")), ("pairs", tok([a for a, _ in PAIRS], [b for _, b in PAIRS], padding=True, truncation="longest_first", max_length=40, return_tensors="pt"))):
            with torch.no_grad():
                logits = m64(**batch).logits
                max_diff = max(max_diff, (m32(**batch).logits.double() - logits).abs().max().item())
            entry["cases"][case] = {"inputs": {k: ints(v) for k, v in batch.items()}, "logits": floats(logits)}
        entry["max_abs_float32_vs_float64"] = max_diff
        out[name] = entry
        log(f"  {name}: {type(m64).__name__}, {entry['num_labels']} labels, fp32-vs-fp64 {max_diff:.2e} ({time.time() - t0:.1f}s)")
    return out


# ---------------------------------------------------------------- cross-encoders

# name: (classifier, CrossEncoder keyword arguments or None for a sentence-transformers 4/5 folder)
CROSS_ENCODERS = {
    "bert": ("bert", {"max_length": 24}),
    "roberta-prompts": ("roberta", {"max_length": 32, "activation_fn": nn.Identity(), "prompts": {"query": "query: ", "short": "q: "}, "default_prompt_name": "query"}),
    "xlm-roberta": ("xlm-roberta", {"max_length": 20}),
    "electra-v4": ("electra", None),
}
# plain classifier folders read as CrossEncoders (no sentence-transformers file)
PLAIN = ["mpnet", "distilbert"]


def make_legacy(source, folder):
    """A classifier folder as sentence-transformers 4 and 5 saved a CrossEncoder: config.json with a
    "sentence_transformers" entry naming the activation (no config_sentence_transformers.json)."""
    shutil.copytree(source, folder)
    config = json.loads((folder / "config.json").read_text())
    config["sentence_transformers"] = {"activation_fn": "torch.nn.modules.activation.Sigmoid", "version": "4.1.0"}
    (folder / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")


def cross_encoder_case(folder, label):
    ce = CrossEncoder(str(folder), device="cpu")
    ce.to(torch.float64)
    features = ce.preprocess([list(p) for p in PAIRS], prompt=ce._resolve_prompt(None, None))
    ids = [[int(t) for t, m in zip(row, mask) if m] for row, mask in zip(features["input_ids"].tolist(), features["attention_mask"].tolist())]
    entry = {
        "folder": label,
        "num_labels": ce.num_labels,
        "activation": type(ce.activation_fn).__name__,
        "max_seq_length": ce.max_seq_length,
        "default_prompt_name": ce.default_prompt_name,
        "pair_ids": ids,
        "predict": floats(ce.predict([list(p) for p in PAIRS], batch_size=4)),
        "predict_identity": floats(ce.predict([list(p) for p in PAIRS], batch_size=2, activation_fn=nn.Identity())),
    }
    if ce.num_labels > 1:
        entry["predict_softmax"] = floats(ce.predict([list(p) for p in PAIRS], apply_softmax=True))
    else:
        entry["rank"] = [{"corpus_id": r["corpus_id"], "score": float(r["score"]), "text": r["text"]} for r in ce.rank(QUERY, DOCUMENTS, return_documents=True)]
        entry["rank_top_3"] = [{"corpus_id": r["corpus_id"], "score": float(r["score"])} for r in ce.rank(QUERY, DOCUMENTS, top_k=3, batch_size=2)]
        if ce.default_prompt_name is not None:
            entry["predict_prompt_short"] = floats(ce.predict([list(p) for p in PAIRS], prompt_name="short"))
    return entry


def make_cross_encoders():
    out = {"pairs": [list(p) for p in PAIRS], "query": QUERY, "documents": DOCUMENTS, "folders": {}}
    for name, (classifier, kwargs) in CROSS_ENCODERS.items():
        folder = OUT / "cross-encoders" / name
        source = OUT / "classifiers" / classifier
        if kwargs is None:
            make_legacy(source, folder)
        else:
            CrossEncoder(str(source), device="cpu", **kwargs).save(str(folder))
            (folder / "README.md").unlink()
        out["folders"][name] = cross_encoder_case(folder, f"rerank/cross-encoders/{name}")
        log(f"  cross-encoder {name}: {out['folders'][name]['activation']}, max_seq_length {out['folders'][name]['max_seq_length']}, files {sorted(f.name for f in folder.iterdir())}")
    for name in PLAIN:
        out["folders"][f"plain-{name}"] = cross_encoder_case(OUT / "classifiers" / name, f"rerank/classifiers/{name}")
        log(f"  plain {name}: {out['folders'][f'plain-{name}']['activation']}")
    return out


# ---------------------------------------------------------------- semantic search


def make_semantic_search():
    rng = np.random.default_rng(SEED)
    dim = 16
    queries = rng.standard_normal((5, dim)).astype(np.float32) / np.float32(np.sqrt(dim))
    corpus = rng.standard_normal((120, dim)).astype(np.float32) / np.float32(np.sqrt(dim))
    corpus[17] = corpus[3]  # exact ties for every query
    corpus[101] = corpus[3]
    corpus[80] = corpus[44]
    corpus[9] = queries[2]  # a query's own vector: cosine 1
    q, c = torch.from_numpy(queries), torch.from_numpy(corpus)
    cases = []
    for score_function, fn in (("cos_sim", cos_sim), ("dot_score", dot_score)):
        for top_k in ((1, 5, 10, 40, 120, 1000) if score_function == "cos_sim" else (1, 10, 40)):
            cases.append({"score_function": score_function, "top_k": top_k, "query_chunk_size": 100, "corpus_chunk_size": 500000})
        cases.append({"score_function": score_function, "top_k": 10, "query_chunk_size": 3, "corpus_chunk_size": 64})
        cases.append({"score_function": score_function, "top_k": 7, "query_chunk_size": 1, "corpus_chunk_size": 1})
    for case in cases:
        fn = cos_sim if case["score_function"] == "cos_sim" else dot_score
        hits = semantic_search(q, c, query_chunk_size=case["query_chunk_size"], corpus_chunk_size=case["corpus_chunk_size"], top_k=case["top_k"], score_function=fn)
        case["hits"] = [[{"corpus_id": int(h["corpus_id"]), "score": float(h["score"])} for h in row] for row in hits]
    return {"dim": dim, "queries": floats(queries), "corpus": floats(corpus), "cases": cases}


def main():
    start = time.time()
    torch.manual_seed(SEED)
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    write_json(OUT / "classifiers.json", make_classifiers())
    write_json(OUT / "cross-encoders.json", make_cross_encoders())
    write_json(OUT / "semantic-search.json", make_semantic_search())
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    files = sum(1 for f in OUT.rglob("*") if f.is_file())
    log(f"rerank fixtures: {files} files, {total / 1e6:.2f} MB, {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
