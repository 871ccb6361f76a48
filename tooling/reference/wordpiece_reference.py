"""BERT's tokenisation algorithm (Devlin et al.'s tokenization.py: BasicTokenizer + greedy
longest-match-first WordPiece), written out in plain Python with the standard unicodedata module.
An implementation independent of @huggingface/tokenizers, to check the JS tokenizer against."""
import unicodedata


def _is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp):
    return any(lo <= cp <= hi for lo, hi in [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
                                             (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)])


def basic_tokenize(text, lowercase=True):
    text = "".join(" " if _is_whitespace(c) else c for c in text if not (ord(c) in (0, 0xFFFD) or _is_control(c)))
    text = "".join(f" {c} " if _is_cjk(ord(c)) else c for c in text)
    tokens = []
    for word in text.split():
        if lowercase:
            word = "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")
        current = ""
        for c in word:
            if _is_punctuation(c):
                if current:
                    tokens.append(current)
                tokens.append(c)
                current = ""
            else:
                current += c
        if current:
            tokens.append(current)
    return tokens


def wordpiece(token, vocab, max_chars=100):
    if len(token) > max_chars:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(token):
        end, piece = len(token), None
        while start < end:
            candidate = token[start:end] if start == 0 else "##" + token[start:end]
            if candidate in vocab:
                piece = candidate
                break
            end -= 1
        if piece is None:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def encode(text, vocab):
    return [vocab[p] for t in basic_tokenize(text) for p in wordpiece(t, vocab)]
