"""Writes the decoder-family fixtures: tiny random-weight causal language models of every decoder family
attnkit loads, saved with save_pretrained, and their references from transformers.

Run from the repository root with the reference virtual environment (torch, transformers 5.17, tokenizers):

    .venv-ref/bin/python tooling/reference/make_decoder_fixtures.py

It deletes and rewrites, under tooling/reference/fixtures/:
  decoders/<name>/   model folders written with save_pretrained (config.json, generation_config.json,
                     model.safetensors) and the family's tokenizer class's save_pretrained (tokenizer.json,
                     tokenizer_config.json): gpt2 (GPT2LMHeadModel, tied head), llama (LlamaForCausalLM,
                     grouped-query, untied), llama-rope-linear (with attention_bias and mlp_bias),
                     llama-rope-dynamic, llama-rope-llama3, llama-rope-yarn, mistral (MistralForCausalLM with
                     a sliding window of 8), qwen2 (untied), qwen2-tied, qwen3 (tied, head_dim 16 with 4 heads
                     of a 32-wide model), qwen3-untied (multi-query)
  decoders.json      per folder: the tokenizer's ids of the texts, float64 logits of a left-padded batch of
                     two short texts (position ids from the mask, as generate makes them; the real tokens only),
                     greedy 32-token generations (generate(do_sample=False, eos_token_id=None)) of each text
                     alone and of all of them as one left-padded batch (the same tokens per row, but with dynamic rope, whose
                     frequencies follow the batch's longest row), and one greedy generation with
                     repetition_penalty=1.3; and, under "warpers", transformers' RepetitionPenaltyLogitsProcessor,
                     TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper and MinPLogitsWarper on one row of
                     scores (alone and chained as generate chains them; a removed token is null for -inf)

Tokenizers, learned here on a small multilingual corpus (multi-byte characters and emoji, so that byte-level
pieces split characters): a byte-level BPE (tokenizers' BpeTrainer with the full byte alphabet) handed to
GPT2Tokenizer and Qwen2Tokenizer, and a SentencePiece-style BPE (Metaspace "▁" pieces, the 256 <0xNN> byte
tokens for byte fallback, as TinyLlama's and Mistral's) handed to LlamaTokenizer; each class's save_pretrained
writes its own pipeline. The script checks that a plain sentence and every text has no unknown id.

Every model is a seeded random init of the family's transformers class (initializer_range 0.2, so that
logits are spread and greedy choices are far from ties) with noise on every norm weight and bias, saved in
float32. References come from the saved folders reloaded with AutoModelForCausalLM: logits in float64
(dtype=torch.float64, sdpa attention: eager float64 attention turns a padded query row into NaN, which
then reaches the real tokens through its keys), generations in float64, checked to be the same tokens in float32, and the smallest
gap between the chosen token's logit and the next one over every greedy step is recorded
(min_greedy_margin): a TypeScript float32 model within 1e-4 of the logits picks the same tokens when that
gap is larger. Values are written with 8 significant digits. No network is used; the output is
deterministic.

With --speed-model DIR it instead writes a SmolLM-135M-shaped random Llama (30 layers, 576 wide, 9 heads,
3 key/value heads, 1536 feed-forward, 49 152 tokens, tied head; 135 M parameters, 540 MB) with the llama
fixture's tokenizer to DIR, for the generation-speed measurement (not committed).
"""
import json
import random
import shutil
import sys
import warnings
from pathlib import Path

import torch
import transformers
from tokenizers import Tokenizer, pre_tokenizers, trainers
from tokenizers import models as tk_models
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    GenerationConfig,
    GPT2Config,
    GPT2LMHeadModel,
    GPT2Tokenizer,
    LlamaConfig,
    LlamaForCausalLM,
    LlamaTokenizer,
    MistralConfig,
    MistralForCausalLM,
    Qwen2Config,
    Qwen2ForCausalLM,
    Qwen2Tokenizer,
    Qwen3Config,
    Qwen3ForCausalLM,
)

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
FOLDERS = FIXTURES / "decoders"
GENERATOR = "tooling/reference/make_decoder_fixtures.py"
VOCAB_SIZE = 320
NEW_TOKENS = 32
TEXTS = ["Hello world, the quick brown fox", "ça coûte très cher 😀", "我们 今天 去 北京 and the", "The cat sat"]
LOGIT_TEXTS = ["The cat sat on", "ça 😀 мир"]
PLAIN = "The quick brown fox jumps over the lazy dog."

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()


def log(*args):
    print(*args, flush=True)


def number(v):
    return float(f"{v:.8g}")


# ---------------------------------------------------------------- corpus and tokenizers

WORDS = (
    "the quick brown fox jumps over lazy dog hello world model token attention layer cat sat on mat and with from "
    "this that is are was not yes it we you they city river music book reading language people time year day night "
    "good new ça coûte très cher größe straße niño mañana привет мир 我们 今天 去 北京 東京 ひらがな 😀 🎉 👍🏽"
).split()


def build_corpus():
    rng = random.Random(0)
    lines = []
    for _ in range(600):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        if rng.random() < 0.5:
            words[0] = words[0].capitalize()
        lines.append(" ".join(words) + rng.choice([".", ",", "!", "?", ""]))
    return lines + TEXTS + [PLAIN]


def train_byte_level_bpe(corpus, specials):
    """A byte-level BPE (GPT-2's and Qwen's kind): every byte is a token, merges learned on the corpus."""
    tok = Tokenizer(tk_models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE - len(specials), min_frequency=2, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    model = json.loads(tok.to_str())["model"]
    vocab = dict(sorted(model["vocab"].items(), key=lambda kv: kv[1]))
    for special in specials:
        vocab[special] = len(vocab)
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return vocab, merges


def train_sentencepiece_bpe(corpus):
    """A SentencePiece-style BPE (Llama 2's, TinyLlama's, Mistral's kind): <unk>, <s>, </s>, the 256 byte tokens
    <0x00>..<0xFF> for byte fallback, then pieces over "▁"-marked words learned from the corpus. Only Latin
    letters are in the alphabet: Cyrillic, CJK and emoji are left to byte fallback, so they come out as several
    byte tokens (<0xF0> <0x9F> <0x98> <0x80> for 😀)."""
    alphabet = sorted({ch for line in corpus for ch in line.replace(" ", "▁") if ord(ch) < 0x250}) + ["▁"]
    tok = Tokenizer(tk_models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    size = VOCAB_SIZE - 3 - 256
    trainer = trainers.BpeTrainer(vocab_size=size, min_frequency=2, initial_alphabet=sorted(set(alphabet)), limit_alphabet=len(set(alphabet)), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    model = json.loads(tok.to_str())["model"]
    pieces = [piece for piece, _ in sorted(model["vocab"].items(), key=lambda kv: kv[1])]
    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for piece in pieces:
        if piece not in vocab:
            vocab[piece] = len(vocab)
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return vocab, merges


def build_tokenizers():
    corpus = build_corpus()
    byte_vocab, byte_merges = train_byte_level_bpe(corpus, ["<|endoftext|>"])
    qwen_vocab, qwen_merges = train_byte_level_bpe(corpus, ["<|endoftext|>", "<|im_start|>", "<|im_end|>"])
    sp_vocab, sp_merges = train_sentencepiece_bpe(corpus)
    return {
        "gpt2": GPT2Tokenizer(vocab=dict(byte_vocab), merges=list(byte_merges)),
        "qwen2": Qwen2Tokenizer(vocab=dict(qwen_vocab), merges=list(qwen_merges)),
        "llama": LlamaTokenizer(vocab=dict(sp_vocab), merges=list(sp_merges)),
    }


# ---------------------------------------------------------------- models

BASE = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64, initializer_range=0.2, rms_norm_eps=1e-6)


def specs():
    """(name, tokenizer, model class, config) of every fixture folder."""
    llama = dict(BASE, num_key_value_heads=2, max_position_embeddings=64, tie_word_embeddings=False, bos_token_id=1, eos_token_id=2)
    qwen = dict(BASE, num_key_value_heads=2, max_position_embeddings=64, bos_token_id=None, eos_token_id=VOCAB_SIZE - 3, pad_token_id=VOCAB_SIZE - 3)
    return [
        ("gpt2", "gpt2", GPT2LMHeadModel, GPT2Config(vocab_size=VOCAB_SIZE, n_embd=32, n_layer=2, n_head=4, n_positions=64, initializer_range=0.2, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=VOCAB_SIZE - 1, eos_token_id=VOCAB_SIZE - 1)),
        ("llama", "llama", LlamaForCausalLM, LlamaConfig(vocab_size=VOCAB_SIZE, **llama)),
        ("llama-rope-linear", "llama", LlamaForCausalLM, LlamaConfig(vocab_size=VOCAB_SIZE, **dict(llama, attention_bias=True, mlp_bias=True), rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0})),
        ("llama-rope-dynamic", "llama", LlamaForCausalLM, LlamaConfig(vocab_size=VOCAB_SIZE, **dict(llama, max_position_embeddings=16), rope_parameters={"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0})),
        ("llama-rope-llama3", "llama", LlamaForCausalLM, LlamaConfig(vocab_size=VOCAB_SIZE, **llama, rope_parameters={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 16, "rope_theta": 500000.0})),
        ("llama-rope-yarn", "llama", LlamaForCausalLM, LlamaConfig(vocab_size=VOCAB_SIZE, **llama, rope_parameters={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16, "rope_theta": 10000.0})),
        ("mistral", "llama", MistralForCausalLM, MistralConfig(vocab_size=VOCAB_SIZE, **dict(llama, head_dim=8), sliding_window=8)),
        ("qwen2", "qwen2", Qwen2ForCausalLM, Qwen2Config(vocab_size=VOCAB_SIZE, **qwen, tie_word_embeddings=False)),
        ("qwen2-tied", "qwen2", Qwen2ForCausalLM, Qwen2Config(vocab_size=VOCAB_SIZE, **qwen, tie_word_embeddings=True)),
        ("qwen3", "qwen2", Qwen3ForCausalLM, Qwen3Config(vocab_size=VOCAB_SIZE, **qwen, head_dim=16, tie_word_embeddings=True)),
        ("qwen3-untied", "qwen2", Qwen3ForCausalLM, Qwen3Config(vocab_size=VOCAB_SIZE, **dict(qwen, num_key_value_heads=1, head_dim=8), tie_word_embeddings=False)),
    ]


GENERATION = {
    # what each folder's generation_config.json says beyond the ids: qwen3's are Qwen3's own sampling defaults
    "qwen3": dict(do_sample=True, temperature=0.6, top_k=20, top_p=0.95, eos_token_id=[VOCAB_SIZE - 3, VOCAB_SIZE - 1]),
    "llama": dict(max_length=48),
}


def perturb(model, seed):
    """Norm weights and biases away from their init (a wrong wiring must not hide behind ones and zeros)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name or "ln_" in name or name.endswith(".bias"):
                p.add_(0.2 * torch.randn(p.shape, generator=g))


def make_folder(index, name, tokenizer, cls, config):
    torch.manual_seed(1000 + index)
    model = cls(config).eval()
    perturb(model, 2000 + index)
    folder = FOLDERS / name
    model.save_pretrained(folder, safe_serialization=True)
    extra = GENERATION.get(name, {})
    gen = GenerationConfig(bos_token_id=config.bos_token_id, eos_token_id=extra.get("eos_token_id", config.eos_token_id), pad_token_id=getattr(config, "pad_token_id", None), **{k: v for k, v in extra.items() if k != "eos_token_id"})
    gen.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


# ---------------------------------------------------------------- references


def left_padded(tok, texts, pad_id):
    rows = [tok(text).input_ids for text in texts]
    width = max(len(r) for r in rows)
    ids = [[pad_id] * (width - len(r)) + r for r in rows]
    mask = [[0] * (width - len(r)) + [1] * len(r) for r in rows]
    return torch.tensor(ids), torch.tensor(mask)


def position_ids(mask):
    """As generate makes them: the count of real tokens before each, padding at 1 (never read)."""
    return (mask.long().cumsum(-1) - 1).masked_fill(mask == 0, 1)


def greedy(model, ids, mask, pad_id, **kwargs):
    out = model.generate(input_ids=ids, attention_mask=mask, do_sample=False, max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS, eos_token_id=None, pad_token_id=pad_id, return_dict_in_generate=True, output_logits=True, **kwargs)
    new = out.sequences[:, ids.shape[1]:]
    logits = torch.stack(out.logits, 1)  # [B, N, V]: the raw logits of each step
    top2 = logits.double().topk(2, dim=-1).values
    return new, (top2[..., 0] - top2[..., 1]).min().item()


def references(folder, tok):
    f64 = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float64, attn_implementation="sdpa").eval()
    f32 = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, attn_implementation="sdpa").eval()
    for text in TEXTS + LOGIT_TEXTS + [PLAIN]:  # no unknown id (nor any special token but the BOS the post-processor adds)
        ids = tok(text).input_ids
        specials = set(ids) & (set(tok.all_special_ids) - {tok.bos_token_id})
        assert not specials, f"{folder.name}: special or unknown ids in {text!r}: {tok.convert_ids_to_tokens(ids)}"
    pad_id = f64.generation_config.pad_token_id
    if pad_id is None:
        pad_id = tok.eos_token_id
    out = {"model_type": f64.config.model_type, "model_class": type(f64).__name__, "tokenizer_class": type(tok).__name__, "pad_token_id": pad_id}
    out["texts"] = TEXTS
    out["tokenized"] = {text: tok(text).input_ids for text in TEXTS + LOGIT_TEXTS + [PLAIN]}

    # logits of a left-padded batch of two short texts, the real tokens only
    ids, mask = left_padded(tok, LOGIT_TEXTS, pad_id)
    with torch.no_grad():
        logits = f64(input_ids=ids, attention_mask=mask, position_ids=position_ids(mask)).logits
    assert torch.isfinite(logits[mask.bool()]).all()
    out["logits"] = {
        "input_ids": ids.tolist(),
        "attention_mask": mask.tolist(),
        "logits": [[[number(v) for v in logits[b, t].tolist()] for t in range(ids.shape[1]) if mask[b, t]] for b in range(ids.shape[0])],
    }

    margins = []
    singles = []
    for text in TEXTS:
        ids = torch.tensor([tok(text).input_ids])
        mask = torch.ones_like(ids)
        new, margin = greedy(f64, ids, mask, pad_id)
        new32, _ = greedy(f32, ids, mask, pad_id)
        assert torch.equal(new, new32), f"{folder.name}: float32 and float64 greedy differ for {text!r}"
        singles.append(new[0].tolist())
        margins.append(margin)
    ids, mask = left_padded(tok, TEXTS, pad_id)
    new, margin = greedy(f64, ids, mask, pad_id)
    new32, _ = greedy(f32, ids, mask, pad_id)
    assert torch.equal(new, new32), f"{folder.name}: float32 and float64 greedy differ for the batch"
    dynamic = (getattr(f64.config, "rope_parameters", None) or {}).get("rope_type") == "dynamic"
    for b, row in enumerate(new.tolist()):  # dynamic's frequencies follow the batch's longest row: its rows may differ
        assert dynamic or row == singles[b], f"{folder.name}: row {b} of the batch differs from its text alone"
    margins.append(margin)
    ids1 = torch.tensor([tok(TEXTS[0]).input_ids])
    penalised, margin = greedy(f64, ids1, torch.ones_like(ids1), pad_id, repetition_penalty=1.3)
    margins.append(margin)
    out["greedy"] = {"max_new_tokens": NEW_TOKENS, "single": singles, "batch": {"input_ids": ids.tolist(), "attention_mask": mask.tolist(), "new_tokens": new.tolist()}, "repetition_penalty_1.3": penalised[0].tolist()}
    out["min_greedy_margin"] = number(min(margins))
    return out


def warper_references():
    """transformers' logits processors on one row of float64 scores (a removed token: null, for -inf)."""
    from transformers.generation.logits_process import MinPLogitsWarper, RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

    g = torch.Generator().manual_seed(77)
    scores = (torch.randn(1, 40, generator=g) * 1.2).double()
    seen = torch.tensor([[3, 7, 7, 12, 30]])
    row = lambda x: [None if v == float("-inf") else number(v) for v in x[0].tolist()]
    cases = {
        "repetition_penalty 1.3": [RepetitionPenaltyLogitsProcessor(1.3)],
        "temperature 0.7": [TemperatureLogitsWarper(0.7)],
        "top_k 5": [TopKLogitsWarper(5)],
        "top_p 0.8": [TopPLogitsWarper(0.8)],
        "min_p 0.1": [MinPLogitsWarper(0.1)],
        "temperature 1.5, top_k 10, top_p 0.9, min_p 0.05": [TemperatureLogitsWarper(1.5), TopKLogitsWarper(10), TopPLogitsWarper(0.9), MinPLogitsWarper(0.05)],
    }
    out = {}
    for name, processors in cases.items():
        x = scores.clone()
        for processor in processors:
            x = processor(seen, x)
        out[name] = row(x)
    return {"scores": row(scores), "seen": seen[0].tolist(), "cases": out}


def make_speed_model(target):
    """A SmolLM-135M-shaped random Llama with the llama fixture's tokenizer (not committed)."""
    target = Path(target)
    tokenizers_ = build_tokenizers()
    config = LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9, num_key_value_heads=3, max_position_embeddings=8192, rope_parameters={"rope_type": "default", "rope_theta": 100000.0}, tie_word_embeddings=True, bos_token_id=1, eos_token_id=2, initializer_range=0.02)
    torch.manual_seed(7)
    model = LlamaForCausalLM(config).eval()
    model.save_pretrained(target, safe_serialization=True)
    tokenizers_["llama"].save_pretrained(target)
    log(f"{target}: {sum(p.numel() for p in model.parameters()) / 1e6:.1f} M parameters")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--speed-model":
        make_speed_model(sys.argv[2])
        return
    shutil.rmtree(FOLDERS, ignore_errors=True)
    FOLDERS.mkdir(parents=True)
    tokenizers_ = build_tokenizers()
    for name, tok in tokenizers_.items():
        ids = tok(PLAIN).input_ids
        log(f"tokenizer {name} ({type(tok).__name__}): {len(tok)} tokens; {PLAIN!r} -> {tok.convert_ids_to_tokens(ids)}")
    cases = {}
    for index, (name, tokenizer, cls, config) in enumerate(specs()):
        folder = make_folder(index, name, tokenizers_[tokenizer], cls, config)
        tok = AutoTokenizer.from_pretrained(folder)
        cases[name] = {"folder": f"decoders/{name}", **references(folder, tok)}
        size = sum(p.stat().st_size for p in folder.iterdir())
        log(f"{name}: {cases[name]['model_class']}, min greedy margin {cases[name]['min_greedy_margin']:.2e}, folder {size / 1e3:.0f} kB")
    payload = {"generator": GENERATOR, "torch": torch.__version__, "transformers": transformers.__version__, "cases": cases, "warpers": warper_references()}
    path = FIXTURES / "decoders.json"
    path.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n", encoding="utf-8")
    log(f"decoders.json: {len(cases)} folders, {path.stat().st_size / 1e6:.3f} MB")


if __name__ == "__main__":
    main()
