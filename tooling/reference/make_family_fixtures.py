"""Writes the model-family and sentence-transformers fixtures: tiny random-weight Hugging Face folders for
eight encoder families, sentence-transformers folders built on them, and their float64 references.

Run from the repository root with the reference virtual environment (torch, transformers,
sentence-transformers, tokenizers):

    .venv-ref/bin/python tooling/reference/make_family_fixtures.py

It deletes and rewrites, under tooling/reference/fixtures/:
  families/<name>/   model folders written with save_pretrained (config.json, model.safetensors) and the
                     family's own tokenizer class's save_pretrained (tokenizer.json, tokenizer_config.json, ...):
                     bert, bert-unigram, bert-cased-vocab-only, distilbert, roberta, xlm-roberta, electra, mpnet
  sentence/<name>/   folders written with SentenceTransformer.save(...) on top of those family folders
  families.json      tokenizer ids (single / truncated / pairs / long) and float64 last_hidden_state
                     (+ pooler_output) for every family folder
  sentence.json      SentenceTransformer.encode(...) references (float64 model; quantized precisions;
                     token embeddings; prompts) and model.similarity matrices for every sentence folder

No network is used; the output is byte-for-byte reproducible. Every tokenizer is learned here on a small
multilingual corpus built from the word lists below: WordPiece uncased / cased and MPNet WordPiece (BPE-style
merges in Python, because tokenizers' WordPieceTrainer assigns ids in hash-map order), byte-level BPE
(tokenizers' BpeTrainer, deterministic with the full byte alphabet), and Unigram (a frequency-scored piece
list, because tokenizers' UnigramTrainer scores depend on hash-map order) behind a SentencePiece-style
"nmt_nfkc" precompiled charsmap that this script compiles itself. Each vocabulary is then handed to the
family's transformers tokenizer class, so save_pretrained writes that class's own pipeline. Every model is a
seeded random init of the family's transformers class with noise added to every bias and LayerNorm parameter,
saved in float32. References come from the saved folders reloaded as a consumer would (AutoTokenizer /
AutoModel / SentenceTransformer(path)), run in float64 (model.double()). The script checks that transformers'
ids equal the raw tokenizer.json's (tokenizers.Tokenizer.from_file) for every text and pair, that reloaded
sentence-transformers folders reproduce the in-memory models exactly, and that quantize_embeddings of the
float64 embeddings with the stored ranges reproduces the quantized cases.
"""
import json
import logging
import math
import random
import re
import shutil
import struct
import time
import unicodedata
import warnings
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import transformers
import sentence_transformers
import tokenizers
from safetensors import safe_open
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer import modules as st_models
from sentence_transformers.util import quantize_embeddings
from tokenizers import Tokenizer, normalizers, pre_tokenizers, trainers
from tokenizers import models as tk_models
from transformers import (
    AutoModel,
    AutoTokenizer,
    BertConfig,
    BertModel,
    BertTokenizerFast,
    DistilBertConfig,
    DistilBertModel,
    DistilBertTokenizerFast,
    ElectraConfig,
    ElectraModel,
    ElectraTokenizerFast,
    MPNetConfig,
    MPNetModel,
    MPNetTokenizerFast,
    RobertaConfig,
    RobertaModel,
    RobertaTokenizerFast,
    XLMRobertaConfig,
    XLMRobertaModel,
    XLMRobertaTokenizerFast,
)

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
FAMILIES = FIXTURES / "families"
SENTENCE = FIXTURES / "sentence"
GENERATOR = "tooling/reference/make_family_fixtures.py"
SEED = 20240611
MAX_POSITIONS = 64
ST_MAX_SEQ = 16

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()
logging.getLogger("sentence_transformers").setLevel(logging.ERROR)
torch.set_num_threads(2)


def log(*args):
    print(*args, flush=True)


# ---------------------------------------------------------------- json helpers


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
    log(f"{path.relative_to(FIXTURES)}: {path.stat().st_size / 1e6:.3f} MB")


# ---------------------------------------------------------------- corpus

WORDS = {
    "en": "the quick brown fox jumps over lazy dog hello world model token embedding sentence search query passage "
    "transformer attention layer weight bias cat sat on mat and or but with from into this that is are was were "
    "be have has had do does did not no yes it its we you they he she city river mountain music book reading "
    "running learning language people time year day night good new first last long great little own other old "
    "right big high different small large next early young important few public bad same able visit mail path "
    "example stop believing price very expensive today study",
    "fr": "ça coûte très cher à zürich élève été déjà garçon français où naïve façade crème brûlée hôtel forêt "
    "fenêtre être avoir nous vous ils elle le la les un une des du de et est sont mais pour avec sans chez "
    "maison voiture école bibliothèque noël",
    "de": "größe straße übermäßig müller schön grün über für mädchen äpfel öffnen fußball weiß heißen "
    "der die das und ist nicht ein eine mit von zu auf bei nach aus wir ihr sie",
    "es": "niño mañana dónde está qué cómo año señor español corazón canción pequeño ciudad el la los las "
    "y es son pero para con sin muy bien gracias",
    "ru": "привет как дела москва столица россии мир язык книга человек время год день ночь хорошо новый "
    "город река гора музыка и в не на что он она мы вы они",
    "el": "καλημέρα κόσμε ελληνικά γράμματα αθήνα θάλασσα ήλιος νερό βιβλίο άνθρωπος και το η ο με για",
    "zh": "我们 今天 去 北京 大学 学习 中文 你好 世界 人 中国 上海 天气 很 好 的 是 在 有 我 他 她 们",
    "ja": "東京 で ひらがな と カタカナ を 勉強 します こんにちは ありがとう 日本 日本語 私 は です 学生 本",
    "ko": "안녕하세요 세계 한국 사람 감사합니다",
}
EMOJI = ["😀", "🎉", "🔥", "❤️", "👍", "👍🏽", "👩‍👩‍👧", "🚀", "✨", "🙂"]
PUNCT = [".", ",", "!", "?", ";", ":", "…", "—", "-", "(", ")", "\"", "'", "«", "»", "¿", "¡", "、", "。", "€", "$", "%", "@", "/", "&"]


def build_corpus(rng):
    lines = []
    for lang, text in WORDS.items():
        words = text.split()
        for _ in range(min(200, max(20, 2 * len(words)))):
            n = rng.randint(4, 12)
            ws = [rng.choice(words) for _ in range(n)]
            if rng.random() < 0.5:
                ws[0] = ws[0].capitalize()
            if lang in ("zh", "ja"):
                line = "".join(ws)
            else:
                line = " ".join(ws)
            if rng.random() < 0.4:
                line += " " + str(rng.choice([rng.randint(0, 100), rng.randint(1000, 99999), round(rng.random() * 100, 2)]))
            if rng.random() < 0.3:
                line += " " + rng.choice(EMOJI)
            line += rng.choice(PUNCT[:6])
            lines.append(line)
    for _ in range(40):
        langs = rng.sample(list(WORDS), 3)
        line = " ".join(rng.choice(WORDS[lang].split()) for lang in langs)
        lines.append(line + " " + rng.choice(PUNCT) + " " + rng.choice(EMOJI))
    lines += [
        "Visit https://example.com/path?q=1&lang=en or mail john.doe@example.org",
        "3.14159 1,000,000 42 -7 1e-5 2024",
        "Hello, World! The Quick Brown Fox.",
    ]
    return lines


# ---------------------------------------------------------------- SentencePiece-style charsmap


def nmt_nfkc_rules():
    """SentencePiece's nmt_nfkc rule set (builder.cc BuildNmtNFKCMap), rebuilt with Python's unicodedata.

    Single code points map to their NFKC form; for every code point whose NFKD has several characters, that
    NFKD sequence maps to its NFC composition. Then the NMT whitespace and control-character rules, and U+FF5E
    (fullwidth tilde) is left unmapped. To keep the fixture small, Hangul syllable decompositions, the CJK
    compatibility ideographs and the mathematical alphanumeric symbols are left out, and the permutation
    expansion of SentencePiece's ExpandUnnormalized is not done.
    """
    rules = {}
    for cp in range(1, 0x110000):
        if 0xD800 <= cp <= 0xDFFF or 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE:
            continue
        if 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F or 0x1D400 <= cp <= 0x1D7FF:
            continue
        c = chr(cp)
        nfkc = unicodedata.normalize("NFKC", c)
        if nfkc != c:
            rules[c] = nfkc
        if 0xAC00 <= cp <= 0xD7A3:
            continue
        nfkd = unicodedata.normalize("NFKD", c)
        if len(nfkd) > 1:
            composed = unicodedata.normalize("NFC", nfkd)
            if composed != nfkd:
                rules.setdefault(nfkd, composed)
    for cp in (0x09, 0x0A, 0x0C, 0x0D, 0x1680, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x2581, 0xFEFF, 0xFFFD, 0x200C):
        rules[chr(cp)] = " "
    for cp in list(range(0x01, 0x09)) + [0x0B] + list(range(0x0E, 0x20)) + [0x7F, 0x8F, 0x9F]:
        rules[chr(cp)] = ""
    rules.pop("\uff5e", None)
    return rules


def compile_charsmap(rules):
    """The precompiled_charsmap blob: u32 trie byte length, a darts-clone double-array trie over the UTF-8
    bytes of the keys (values are offsets into the blob that follows), then the NUL-terminated replacements."""
    blob = bytearray()
    offsets = {}
    for key in sorted(rules):
        value = rules[key]
        if value not in offsets:
            offsets[value] = len(blob)
            blob += value.encode("utf-8") + b"\0"
    root = {}
    for key, value in rules.items():
        node = root
        for byte in key.encode("utf-8"):
            node = node.setdefault(byte, {})
        node[None] = offsets[value]
    units = [0] * 4096
    used = bytearray(4096)
    used[0] = 1
    used_bases = set()

    def ensure(n):
        while len(units) <= n:
            units.extend([0] * len(units))
            used.extend(bytearray(len(used)))

    first_free = 1
    queue = [(0, root)]
    head = 0
    while head < len(queue):
        pos, node = queue[head]
        head += 1
        labels = sorted(k for k in node if k is not None)
        leaf = None in node
        slots = ([0] if leaf else []) + labels
        while used[first_free]:
            first_free += 1
            ensure(first_free + 256)
        q = first_free
        while True:
            ensure(q + 256)
            if not used[q]:
                base = q ^ slots[0]
                if base and base not in used_bases and (pos ^ base) < (1 << 21) and all(not used[base ^ s] for s in slots):
                    break
            q += 1
        used_bases.add(base)
        units[pos] = (units[pos] & 0xFF) | ((pos ^ base) << 10) | ((1 << 8) if leaf else 0)
        if leaf:
            units[base] = node[None] | (1 << 31)
            used[base] = 1
        for s in labels:
            used[base ^ s] = 1
            units[base ^ s] = s
            queue.append((base ^ s, node[s]))
    # Whole 256-unit blocks, as darts-clone writes them: a lookup reads base ^ byte, which stays inside base's block.
    size = ((max(max(i for i in range(len(used)) if used[i]), max(used_bases)) >> 8) + 1) << 8
    ensure(size)
    trie = struct.pack(f"<{size}I", *units[:size])
    return struct.pack("<I", len(trie)) + trie + bytes(blob)


# ---------------------------------------------------------------- tokenizers


def word_counts(corpus, normalizer, pre_tokenizer):
    counts = {}
    for line in corpus:
        text = normalizer.normalize_str(line) if normalizer is not None else line
        for word, _ in pre_tokenizer.pre_tokenize_str(text):
            counts[word] = counts.get(word, 0) + 1
    return counts


def train_wordpiece(corpus, lowercase, specials, vocab_size):
    """A WordPiece vocabulary learned with BPE-style merges (most frequent pair first, ties broken by the pair's
    text). Written here rather than with tokenizers' WordPieceTrainer, whose ids depend on hash-map order."""
    counts = word_counts(corpus, normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=lowercase, lowercase=lowercase), pre_tokenizers.BertPreTokenizer())
    words = {w: [w[0]] + ["##" + c for c in w[1:]] for w in sorted(counts)}
    alphabet = sorted({sym for syms in words.values() for sym in syms}, key=lambda t: (t.startswith("##"), t))
    vocab = list(specials) + alphabet
    seen = set(vocab)
    while len(vocab) < vocab_size:
        pairs = {}
        for w, syms in words.items():
            for a, b in zip(syms, syms[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + counts[w]
        if not pairs:
            break
        (a, b), n = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        if n < 2:
            break
        merged = a + b[2:]
        for w, syms in words.items():
            out, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == a and syms[i + 1] == b:
                    out.append(merged)
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            words[w] = out
        if merged not in seen:
            vocab.append(merged)
            seen.add(merged)
    return {t: i for i, t in enumerate(vocab)}


def train_bpe(corpus, vocab_size):
    tok = Tokenizer(tk_models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=["<s>", "<pad>", "</s>", "<unk>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    model = json.loads(tok.to_str())["model"]
    vocab = dict(sorted(model["vocab"].items(), key=lambda kv: kv[1]))
    vocab["<mask>"] = len(vocab)
    merges = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in model["merges"]]
    return vocab, merges


def train_unigram(corpus, charsmap, vocab_size, max_piece=8):
    """A Unigram (SentencePiece-style) vocabulary: every character of the normalised, Metaspace-split corpus plus
    the most useful substrings (frequency x (length - 1), ties by text), each scored log(frequency / total).
    Written here rather than with tokenizers' UnigramTrainer, whose scores depend on hash-map order."""
    pre = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")])
    counts = word_counts(corpus, normalizers.Precompiled(charsmap), pre)
    freq = {}
    for w, c in counts.items():
        for i in range(len(w)):
            for j in range(i + 1, min(len(w), i + max_piece) + 1):
                freq[w[i:j]] = freq.get(w[i:j], 0) + c
    chars = sorted(p for p in freq if len(p) == 1)
    longer = sorted((p for p in freq if len(p) > 1 and freq[p] >= 2), key=lambda p: (-freq[p] * (len(p) - 1), p))
    pieces = chars + longer[: max(0, vocab_size - 5 - len(chars))]
    total = float(sum(freq[p] for p in pieces))
    scored = sorted(((p, math.log(freq[p] / total)) for p in pieces), key=lambda ps: (-ps[1], ps[0]))
    return [("<s>", 0.0), ("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)] + scored + [("<mask>", 0.0)]


def build_tokenizers(corpus):
    t0 = time.time()
    charsmap = compile_charsmap(nmt_nfkc_rules())
    log(f"charsmap: {len(charsmap)} bytes ({time.time() - t0:.1f}s)")
    bert_specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    wp_uncased = train_wordpiece(corpus, True, bert_specials, 520)
    wp_cased = train_wordpiece(corpus, False, bert_specials, 600)
    mp = train_wordpiece(corpus, True, ["<s>", "<pad>", "</s>", "<unk>"], 520)
    mp["<mask>"] = len(mp)
    bpe_vocab, bpe_merges = train_bpe(corpus, 560)
    uni = train_unigram(corpus, charsmap, 520)
    common = {"model_max_length": MAX_POSITIONS}
    toks = {
        "bert": BertTokenizerFast(vocab=dict(wp_uncased), do_lower_case=True, **common),
        "distilbert": DistilBertTokenizerFast(vocab=dict(wp_uncased), do_lower_case=True, **common),
        "electra": ElectraTokenizerFast(vocab=dict(wp_uncased), do_lower_case=True, **common),
        "bert-cased-vocab-only": BertTokenizerFast(vocab=dict(wp_cased), do_lower_case=False, **common),
        "mpnet": MPNetTokenizerFast(vocab=dict(mp), do_lower_case=True, unk_token="<unk>", **common),
        "roberta": RobertaTokenizerFast(vocab=dict(bpe_vocab), merges=list(bpe_merges), **common),
        "xlm-roberta": XLMRobertaTokenizerFast(vocab=list(uni), _spm_precompiled_charsmap=charsmap, **common),
        "bert-unigram": XLMRobertaTokenizerFast(vocab=list(uni), _spm_precompiled_charsmap=charsmap, **common),
    }
    log(f"tokenizers trained ({time.time() - t0:.1f}s): " + ", ".join(f"{k}={len(v)}" for k, v in toks.items()))
    return toks


# ---------------------------------------------------------------- texts

LONG_WORD = "supercalifragilistic" * 10
SINGLE_TEXTS = [
    "Hello, World! The Quick brown fox jumps over the lazy dog.",
    "Don't stop-believing... (it's 2024!)",
    "Ça coûte 12,50 € à Zürich — très cher!",
    "Größe der Straße: übermäßig schön; naïve façade, crème brûlée.",
    "¿Dónde está el niño? ¡Mañana, señor!",
    "Привет, как дела? Москва — столица России.",
    "Καλημέρα κόσμε! Ελληνικά γράμματα.",
    "我们今天去北京大学学习中文。",
    "東京でひらがなとカタカナを勉強します。",
    "안녕하세요 세계, 한국어 텍스트",
    "👩‍👩‍👧 👍🏽 🎉🔥 ❤️ family",
    "",
    "   \t\n ",
    "[MASK] or <mask> and </s> [CLS] <s> [SEP] <pad> [UNK] <unk>",
    "Visit https://example.com/path?q=1&lang=en or mail john.doe@example.org",
    "e\u0301 cafe\u0301 vs caf\u00e9",
    LONG_WORD,
    "3.14159 1,000,000 42 -7 1e-5",
    "Ｆｕｌｌ－ｗｉｄｔｈ ﬁ ½ ① ～ ㌔",
]
TRUNC_TEXTS = [
    "Hello, World! The Quick brown fox jumps over the lazy dog.",
    "Ça coûte 12,50 € à Zürich — très cher! Привет, как дела?",
    "short",
]
PAIRS = [
    ("The cat sat on the mat.", "The mat sat on the cat.", 10),
    ("The cat sat on the mat.", "The mat sat on the cat.", 11),
    ("Short question?", "A much longer passage about the quick brown fox that jumps over the lazy dog in the city by the river.", 16),
    ("Hello world", "Ça coûte très cher", None),
    ("Привет, как дела? Москва — столица России.", "我们今天去北京大学学习中文。", 12),
]
LONG_TEXT = " ".join(
    ["The quick brown fox jumps over the lazy dog.", "Ça coûte 12,50 € à Zürich.", "Привет, как дела?", "我们今天去北京。", "👍🏽"] * 12
)
BATCH_TEXTS = [
    "Hello world!",
    "Ça coûte 12,50 € — très cher! 👍🏽",
    "The quick brown fox jumps over the lazy dog.",
]
SENTENCE_TEXTS = [
    "Hello world",
    "The quick brown fox jumps over the lazy dog while the people in the city are reading a long book about music and mountains.",
    "Ça coûte 12,50 € à Zürich — très cher!",
    "Привет, как дела? 我们今天去北京。",
    "👩‍👩‍👧 👍🏽 🎉",
    "",
    "search query: cat",
    "Größe der Straße",
]


# ---------------------------------------------------------------- models


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


def common_cfg(vocab_size):
    return dict(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64, initializer_range=0.1, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)


def build_model(name, tok):
    v = len(tok)
    if name in ("bert", "bert-cased-vocab-only", "bert-unigram"):
        cfg = BertConfig(**common_cfg(v), max_position_embeddings=MAX_POSITIONS, type_vocab_size=2, hidden_act="gelu_new" if name == "bert-unigram" else "gelu", pad_token_id=tok.pad_token_id)
        return BertModel(cfg, add_pooling_layer=True)
    if name == "distilbert":
        cfg = DistilBertConfig(vocab_size=v, dim=32, n_layers=2, n_heads=4, hidden_dim=64, activation="gelu", max_position_embeddings=MAX_POSITIONS, dropout=0.0, attention_dropout=0.0, initializer_range=0.1, pad_token_id=tok.pad_token_id)
        return DistilBertModel(cfg)
    if name in ("roberta", "xlm-roberta"):
        cls_cfg, cls_model = (RobertaConfig, RobertaModel) if name == "roberta" else (XLMRobertaConfig, XLMRobertaModel)
        cfg = cls_cfg(**common_cfg(v), max_position_embeddings=MAX_POSITIONS + 2, type_vocab_size=1, pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
        return cls_model(cfg, add_pooling_layer=True)
    if name == "electra":
        cfg = ElectraConfig(**common_cfg(v), embedding_size=16, max_position_embeddings=MAX_POSITIONS, type_vocab_size=2, hidden_act="gelu", pad_token_id=tok.pad_token_id)
        return ElectraModel(cfg)
    if name == "mpnet":
        cfg = MPNetConfig(**common_cfg(v), max_position_embeddings=MAX_POSITIONS + 2, relative_attention_num_buckets=32, hidden_act="gelu", pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
        return MPNetModel(cfg)
    raise KeyError(name)


FAMILY_ORDER = ["bert", "bert-unigram", "bert-cased-vocab-only", "distilbert", "roberta", "xlm-roberta", "electra", "mpnet"]
EXPECTED_TYPE = {"bert": "bert", "bert-unigram": "bert", "bert-cased-vocab-only": "bert", "distilbert": "distilbert", "roberta": "roberta", "xlm-roberta": "xlm-roberta", "electra": "electra", "mpnet": "mpnet"}
HAS_POOLER = {"bert", "bert-unigram", "bert-cased-vocab-only", "roberta", "xlm-roberta", "mpnet"}


def check_tokenizer_json(folder, tok, texts):
    """transformers' ids (loaded folder) must equal the raw tokenizer.json's ids for every text."""
    path = folder / "tokenizer.json"
    if not path.exists():
        return
    raw = Tokenizer.from_file(str(path))
    for text in texts:
        a = tok(text)["input_ids"]
        b = raw.encode(text, add_special_tokens=True).ids
        if a != b:
            raise AssertionError(f"{folder.name}: tokenizer.json ids differ from transformers for {text!r}: {a} vs {b}")
    for a_text, b_text, _ in PAIRS:
        a = tok(a_text, b_text)["input_ids"]
        b = raw.encode(a_text, b_text, add_special_tokens=True).ids
        if a != b:
            raise AssertionError(f"{folder.name}: pair ids differ for {(a_text, b_text)!r}: {a} vs {b}")


def tokenizer_reference(tok):
    returns_tt = "token_type_ids" in tok("x")
    single = []
    normalizer = tok.backend_tokenizer.normalizer
    for text in SINGLE_TEXTS:
        enc = tok(text, return_token_type_ids=True)
        item = {"text": text, "ids": enc["input_ids"], "tokens": tok.convert_ids_to_tokens(enc["input_ids"]), "token_type_ids": enc["token_type_ids"]}
        if normalizer is not None:
            item["normalized"] = normalizer.normalize_str(text)
        single.append(item)
    truncated = []
    for text in TRUNC_TEXTS:
        for max_length in (8, 16):
            truncated.append({"text": text, "max_length": max_length, "ids": tok(text, truncation=True, max_length=max_length)["input_ids"]})
    pairs = []
    for a, b, max_length in PAIRS:
        if max_length is None:
            enc = tok(a, b, return_token_type_ids=True)
        else:
            enc = tok(a, b, truncation="longest_first", max_length=max_length, return_token_type_ids=True)
        full_a = tok(a, add_special_tokens=False)["input_ids"]
        full_b = tok(b, add_special_tokens=False)["input_ids"]
        pairs.append({"a": a, "b": b, "max_length": max_length, "ids": enc["input_ids"], "token_type_ids": enc["token_type_ids"], "tokens": tok.convert_ids_to_tokens(enc["input_ids"]), "a_length": len(full_a), "b_length": len(full_b)})
    long_ids = tok(LONG_TEXT, truncation=False)["input_ids"]
    assert len(long_ids) > 200, len(long_ids)
    return {
        "returns_token_type_ids": returns_tt,
        "num_special_tokens_single": tok.num_special_tokens_to_add(pair=False),
        "num_special_tokens_pair": tok.num_special_tokens_to_add(pair=True),
        "special_tokens": {k: {"token": str(getattr(tok, k)), "id": getattr(tok, k + "_id")} for k in ("pad_token", "unk_token", "cls_token", "sep_token", "mask_token", "bos_token", "eos_token") if getattr(tok, k, None) is not None},
        "vocab_size": len(tok),
        "single": single,
        "truncated": truncated,
        "pairs": pairs,
        "long_untruncated": {"text": LONG_TEXT, "ids": long_ids},
    }


def safetensor_patterns(path):
    with safe_open(str(path), "pt") as f:
        names = list(f.keys())
        shapes = {n: list(f.get_slice(n).get_shape()) for n in names}
        dtypes = {str(f.get_slice(n).get_dtype()) for n in names}
    patterns = {}
    for n in names:
        p = re.sub(r"\.(\d+)\.", ".N.", n)
        patterns.setdefault(p, shapes[n])
    return patterns, sorted(dtypes)


def make_families(toks):
    out = {}
    for name in FAMILY_ORDER:
        t0 = time.time()
        folder = FAMILIES / name
        folder.mkdir(parents=True)
        tok = toks[name]
        torch.manual_seed(SEED + FAMILY_ORDER.index(name))
        model = perturb(build_model(name, tok)).eval()
        model.save_pretrained(str(folder))
        tok.save_pretrained(str(folder))
        if name == "bert-cased-vocab-only":
            # A legacy-style folder: vocab.txt (one token per line, line number = id) and tokenizer_config.json only.
            # transformers 5 does not write vocab.txt itself, so it is written here from the tokenizer's vocabulary.
            vocab = tok.get_vocab()
            ordered = sorted(vocab, key=vocab.get)
            assert [vocab[t] for t in ordered] == list(range(len(ordered)))
            (folder / "vocab.txt").write_text("".join(t + "\n" for t in ordered), encoding="utf-8")
            for extra in ("tokenizer.json", "special_tokens_map.json"):
                (folder / extra).unlink(missing_ok=True)
            keep = {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json"}
            for f in folder.iterdir():
                if f.name not in keep:
                    f.unlink()
            tc = json.loads((folder / "tokenizer_config.json").read_text())
            assert tc.get("do_lower_case") is False, tc
            assert sorted(f.name for f in folder.iterdir()) == sorted(keep), sorted(f.name for f in folder.iterdir())
        config = json.loads((folder / "config.json").read_text())
        assert config["model_type"] == EXPECTED_TYPE[name], config["model_type"]
        # Reload as a consumer would.
        ltok = AutoTokenizer.from_pretrained(str(folder))
        check_tokenizer_json(folder, ltok, SINGLE_TEXTS + TRUNC_TEXTS + [LONG_TEXT])
        for text in SINGLE_TEXTS + [LONG_TEXT]:
            assert ltok(text)["input_ids"] == tok(text)["input_ids"], (name, text)
        lmodel = AutoModel.from_pretrained(str(folder)).eval()
        assert type(lmodel).__name__ == type(model).__name__
        ref = tokenizer_reference(ltok)
        enc = ltok(BATCH_TEXTS, padding=True, return_tensors="pt")
        m64 = AutoModel.from_pretrained(str(folder)).eval().double()
        with torch.no_grad():
            o64 = m64(**enc)
            o32 = lmodel(**enc)
        diff = (o64.last_hidden_state - o32.last_hidden_state.double()).abs().max().item()
        patterns, dtypes = safetensor_patterns(folder / "model.safetensors")
        entry = {
            "folder": f"families/{name}",
            "model_type": config["model_type"],
            "model_class": type(lmodel).__name__,
            "tokenizer_class": type(ltok).__name__,
            "tokenizer_class_in_config": json.loads((folder / "tokenizer_config.json").read_text()).get("tokenizer_class"),
            "files": sorted(f.name for f in folder.iterdir()),
            "tokenizer": ref,
            "inputs": {k: ints(v) for k, v in enc.items()},
            "input_texts": BATCH_TEXTS,
            "last_hidden_state": floats(o64.last_hidden_state),
        }
        if name in HAS_POOLER:
            assert o64.pooler_output is not None
            entry["pooler_output"] = floats(o64.pooler_output)
        else:
            assert getattr(o64, "pooler_output", None) is None
        entry["max_abs_float32_vs_float64"] = diff
        entry["checkpoint"] = {"dtypes": dtypes, "tensors": patterns}
        entry["config_keys"] = sorted(config)
        out[name] = entry
        log(f"  {name}: vocab {len(ltok)}, {type(lmodel).__name__}/{type(ltok).__name__}, fp32-vs-fp64 {diff:.2e} ({time.time() - t0:.1f}s)")
    return out


# ---------------------------------------------------------------- sentence-transformers

PROMPTS = {"query": "query: ", "passage": "passage: "}


def perturb_dense(dense, scale=0.1):
    with torch.no_grad():
        if dense.linear.bias is not None:
            dense.linear.bias.add_(scale * torch.randn_like(dense.linear.bias))
    return dense


def sentence_specs():
    specs = []

    def add(name, family, pooling, **kw):
        specs.append(dict(name=name, family=family, pooling=pooling, **kw))

    add("bert-cls", "bert", "cls")
    add("bert-mean-normalize", "bert", "mean", normalize=True)
    add("bert-max", "bert", "max")
    add("bert-mean-sqrt", "bert", "mean_sqrt_len_tokens")
    add("bert-weightedmean", "bert", "weightedmean")
    add("bert-lasttoken", "bert", "lasttoken")
    add("bert-dense", "bert", "mean", dense=True, normalize=True)
    add("bert-prompts", "bert", "mean", include_prompt=False, prompts=PROMPTS, default_prompt_name="query", similarity="dot")
    add("bert-prompts-included", "bert", "mean", include_prompt=True, prompts=PROMPTS, default_prompt_name=None, similarity="euclidean")
    # sentence-transformers 6.0.1 does not save do_lower_case (nor max_seq_length) in sentence_bert_config.json, and
    # transformers 5 rebuilds BertTokenizer's normalizer from tokenizer_config.json on load (dropping the Lowercase
    # that ST put into tokenizer.json), so a plain save/reload loses the lowercasing. The folder therefore gets the
    # legacy keys that older sentence-transformers wrote and 6.0.1 still honours on load.
    add("bert-lowercase", "bert-cased-vocab-only", "mean", do_lower_case=True, similarity="manhattan", legacy_config={"max_seq_length": ST_MAX_SEQ, "do_lower_case": True})
    add("distilbert-mean", "distilbert", "mean")
    add("roberta-mean", "roberta", "mean")
    add("xlm-roberta-mean-normalize", "xlm-roberta", "mean", normalize=True)
    add("electra-mean", "electra", "mean")
    add("mpnet-mean-normalize", "mpnet", "mean", normalize=True)
    add("bert-unigram-mean", "bert-unigram", "mean")
    return specs


def legacy_sentence_bert_config(folder, extra):
    """Adds the pre-6.0 keys (max_seq_length, do_lower_case) to sentence_bert_config.json; 6.0.1 still reads them."""
    path = folder / "sentence_bert_config.json"
    config = json.loads(path.read_text())
    config.update(extra)
    path.write_text(json.dumps(config, indent=4) + "\n")


def build_sentence_model(spec, index):
    torch.manual_seed(SEED + 100 + index)
    tr = st_models.Transformer(str(FAMILIES / spec["family"]), max_seq_length=ST_MAX_SEQ, do_lower_case=spec.get("do_lower_case", False))
    dim = tr.get_embedding_dimension()
    modules = [tr, st_models.Pooling(dim, pooling_mode=spec["pooling"], include_prompt=spec.get("include_prompt", True))]
    if spec.get("dense"):
        modules.append(perturb_dense(st_models.Dense(dim, 24, bias=True, activation_function=nn.Tanh())))
        modules.append(perturb_dense(st_models.Dense(24, 16, bias=False, activation_function=nn.Identity())))
    if spec.get("normalize"):
        modules.append(st_models.Normalize())
    return SentenceTransformer(
        modules=modules,
        device="cpu",
        prompts=spec.get("prompts"),
        default_prompt_name=spec.get("default_prompt_name"),
        similarity_fn_name=spec.get("similarity"),
    )


def module_types(folder):
    return [m["type"] for m in json.loads((folder / "modules.json").read_text())]


def encode_cases(model, spec, texts):
    """Every encode() case for one model (float64). Returns the JSON cases and the default embeddings."""
    cases = []

    def run(options, output_value="sentence_embedding"):
        kwargs = dict(options)
        emb = model.encode(texts, output_value=output_value, show_progress_bar=False, **kwargs)
        case = {"options": options, "output_value": output_value}
        prompt = model._resolve_prompt(kwargs.get("prompt"), kwargs.get("prompt_name"))
        case["applied_prompt"] = prompt
        if prompt:
            case["prompt_length"] = model[0]._get_prompt_length(prompt)
            case["pooling_drops_prompt_tokens"] = any(isinstance(m, st_models.Pooling) and not m.include_prompt for m in model)
        if output_value == "token_embeddings":
            assert all(t.dtype == torch.float64 for t in emb), [t.dtype for t in emb]
            case["embeddings"] = [floats(t) for t in emb]
        elif kwargs.get("precision", "float32") != "float32":
            assert emb.dtype in (np.int8, np.uint8), emb.dtype
            case["embeddings"] = ints(emb)
            case["dtype"] = str(emb.dtype)
        else:
            assert emb.dtype == np.float64, emb.dtype
            case["embeddings"] = floats(emb)
        cases.append(case)
        return emb, case

    base = {"batch_size": 2}
    default, _ = run(dict(base))
    run(dict(base, normalize_embeddings=True))
    run(dict(base, truncate_dim=8))
    if spec.get("dense"):
        run(dict(base, truncate_dim=4, normalize_embeddings=True))
    for precision in ("int8", "uint8", "binary", "ubinary"):
        emb, case = run(dict(base, precision=precision))
        # The float64 embeddings that quantize_embeddings saw: the default case's (same options, float output).
        if precision.endswith("int8"):
            ranges = np.vstack((default.min(axis=0), default.max(axis=0)))
            case["ranges"] = floats(ranges)
            case["ranges_from"] = "per-dimension min (row 0) and max (row 1) over this call's float64 embeddings of all texts"
        mine = quantize_embeddings(default, precision=precision)
        assert np.array_equal(mine, emb), precision
    run(dict(base), output_value="token_embeddings")
    if spec.get("prompts"):
        run(dict(base, prompt_name="query"))
        run(dict(base, prompt_name="passage"))
        run(dict(base, prompt="custom: "))
    return cases, default


def tokenized(model, texts):
    """The ids each text becomes inside encode() with default options (default prompt, max_seq_length)."""
    prompt = model._resolve_prompt(None, None)
    return [ints(model.preprocess([t], prompt=prompt)["input_ids"][0]) for t in texts]


def make_sentence():
    out = {}
    specs = sentence_specs()
    for index, spec in enumerate(specs):
        t0 = time.time()
        name = spec["name"]
        folder = SENTENCE / name
        model = build_sentence_model(spec, index)
        model.save(str(folder))
        if spec.get("legacy_config"):
            legacy_sentence_bert_config(folder, spec["legacy_config"])
        # Reference from the saved folder, reloaded as a consumer would, in float64.
        loaded = SentenceTransformer(str(folder), device="cpu").double()
        assert next(loaded.parameters()).dtype == torch.float64
        mem = model.double()
        cases, default = encode_cases(loaded, spec, SENTENCE_TEXTS)
        mem_default = mem.encode(SENTENCE_TEXTS, batch_size=2, show_progress_bar=False)
        mem_vs_loaded = float(np.abs(mem_default - default).max())
        assert mem_vs_loaded < 1e-12, (name, mem_vs_loaded)
        sim = loaded.similarity(torch.from_numpy(default), torch.from_numpy(default))
        assert sim.dtype == torch.float64
        entry = {
            "folder": f"sentence/{name}",
            "plain": False,
            "family": spec["family"],
            "modules": module_types(folder),
            "max_seq_length": loaded.max_seq_length,
            "prompts": loaded.prompts,
            "default_prompt_name": loaded.default_prompt_name,
            "post_save_edit": {"sentence_bert_config.json": spec["legacy_config"]} if spec.get("legacy_config") else None,
            "files": sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()),
            "texts": SENTENCE_TEXTS,
            "input_ids": tokenized(loaded, SENTENCE_TEXTS),
            "cases": cases,
            "similarity": {"fn": loaded.similarity_fn_name, "matrix": floats(sim)},
        }
        out[name] = entry
        log(f"  {name}: {entry['modules']} sim={entry['similarity']['fn']} mem-vs-reloaded {mem_vs_loaded:.2e} ({time.time() - t0:.1f}s)")
    # plain HF folder: what SentenceTransformer builds by itself
    t0 = time.time()
    plain = SentenceTransformer(str(FAMILIES / "bert"), device="cpu").double()
    spec = {"name": "plain-bert"}
    cases, default = encode_cases(plain, spec, SENTENCE_TEXTS)
    sim = plain.similarity(torch.from_numpy(default), torch.from_numpy(default))
    built = []
    for m in plain:
        d = {"class": type(m).__name__, "type": f"{type(m).__module__}.{type(m).__name__}"}
        if isinstance(m, st_models.Pooling):
            d["pooling_mode"] = m.pooling_mode
            d["include_prompt"] = m.include_prompt
            d["embedding_dimension"] = m.embedding_dimension
        built.append(d)
    out["plain-bert"] = {
        "folder": "families/bert",
        "plain": True,
        "family": "bert",
        "modules": [d["type"] for d in built],
        "built_modules": built,
        "max_seq_length": plain.max_seq_length,
        "prompts": plain.prompts,
        "default_prompt_name": plain.default_prompt_name,
        "texts": SENTENCE_TEXTS,
        "input_ids": tokenized(plain, SENTENCE_TEXTS),
        "cases": cases,
        "similarity": {"fn": plain.similarity_fn_name, "matrix": floats(sim)},
    }
    log(f"  plain-bert: {built} ({time.time() - t0:.1f}s)")
    return out


# ---------------------------------------------------------------- main


def main():
    start = time.time()
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    for d in (FAMILIES, SENTENCE):
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    corpus = build_corpus(random.Random(SEED))
    toks = build_tokenizers(corpus)
    log(f"{GENERATOR}: torch {torch.__version__}, transformers {transformers.__version__}, tokenizers {tokenizers.__version__}, sentence-transformers {sentence_transformers.__version__}")
    families = make_families(toks)
    write_json(FIXTURES / "families.json", families)
    sentence = make_sentence()
    write_json(FIXTURES / "sentence.json", sentence)
    total = sum(p.stat().st_size for d in (FAMILIES, SENTENCE) for p in d.rglob("*") if p.is_file())
    total += (FIXTURES / "families.json").stat().st_size + (FIXTURES / "sentence.json").stat().st_size
    log(f"total fixture size {total / 1e6:.2f} MB, {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
