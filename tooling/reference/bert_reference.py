"""A BERT encoder in plain PyTorch that mirrors Hugging Face's modeling_bert.BertModel: same module
tree and parameter names, post-LN, exact erf GELU, additive mask (1 - m) * finfo(float32).min.
(transformers is not installable here; this is the reference attnkit's BERT is checked against.)"""
import json
import math
import struct

import torch
import torch.nn as nn
import torch.nn.functional as F


class Embeddings(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.word_embeddings = nn.Embedding(c["vocab_size"], c["hidden_size"])
        self.position_embeddings = nn.Embedding(c["max_position_embeddings"], c["hidden_size"])
        self.token_type_embeddings = nn.Embedding(c["type_vocab_size"], c["hidden_size"])
        self.LayerNorm = nn.LayerNorm(c["hidden_size"], eps=c["layer_norm_eps"])

    def forward(self, input_ids, token_type_ids):
        positions = torch.arange(input_ids.shape[1])[None, :]
        x = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids) + self.position_embeddings(positions)
        return self.LayerNorm(x)


class SelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        h = c["hidden_size"]
        self.heads = c["num_attention_heads"]
        self.query, self.key, self.value = nn.Linear(h, h), nn.Linear(h, h), nn.Linear(h, h)

    def forward(self, x, additive_mask):
        b, t, e = x.shape
        d = e // self.heads
        split = lambda y: y.view(b, t, self.heads, d).transpose(1, 2)  # [B, H, T, D]
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + additive_mask
        probs = F.softmax(scores, dim=-1)
        return (probs @ v).transpose(1, 2).reshape(b, t, e), probs


class DenseLayerNorm(nn.Module):
    """BertSelfOutput / BertOutput: dense, residual, LayerNorm."""
    def __init__(self, c, width_in):
        super().__init__()
        self.dense = nn.Linear(width_in, c["hidden_size"])
        self.LayerNorm = nn.LayerNorm(c["hidden_size"], eps=c["layer_norm_eps"])

    def forward(self, x, residual):
        return self.LayerNorm(self.dense(x) + residual)


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        setattr(self, "self", SelfAttention(c))
        self.output = DenseLayerNorm(c, c["hidden_size"])

    def forward(self, x, mask):
        attended, probs = getattr(self, "self")(x, mask)
        return self.output(attended, x), probs


class Intermediate(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c["hidden_size"], c["intermediate_size"])

    def forward(self, x):
        return F.gelu(self.dense(x))  # exact (erf) GELU


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attention = Attention(c)
        self.intermediate = Intermediate(c)
        self.output = DenseLayerNorm(c, c["intermediate_size"])

    def forward(self, x, mask):
        attended, probs = self.attention(x, mask)
        return self.output(self.intermediate(attended), attended), probs


class Encoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layer = nn.ModuleList([Layer(c) for _ in range(c["num_hidden_layers"])])


class Pooler(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c["hidden_size"], c["hidden_size"])

    def forward(self, x):
        return torch.tanh(self.dense(x[:, 0]))


class BertModel(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embeddings = Embeddings(c)
        self.encoder = Encoder(c)
        self.pooler = Pooler(c)

    def forward(self, input_ids, attention_mask, token_type_ids):
        mask = (1.0 - attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        x = self.embeddings(input_ids, token_type_ids)
        hidden, attentions = [x], []
        for layer in self.encoder.layer:
            x, probs = layer(x, mask)
            hidden.append(x)
            attentions.append(probs)
        return {"last_hidden_state": x, "pooler_output": self.pooler(x), "hidden_states": hidden, "attentions": attentions}


def init_sharp(model, seed):
    """Weights that make attention sharp and LayerNorm non-trivial, so masking, scaling and LN bugs show."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "LayerNorm.weight" in name:
                p.copy_(1.0 + 0.3 * torch.randn(p.shape, generator=generator))
            elif name.endswith("bias"):
                p.copy_(0.2 * torch.randn(p.shape, generator=generator))
            elif "embeddings" in name:
                p.copy_(0.5 * torch.randn(p.shape, generator=generator))
            else:
                p.copy_(torch.randn(p.shape, generator=generator) * (1.5 / math.sqrt(p.shape[1])))


def config(vocab, hidden, layers, heads, intermediate, positions, types=2):
    return {"architectures": ["BertModel"], "model_type": "bert", "vocab_size": vocab, "hidden_size": hidden,
            "num_hidden_layers": layers, "num_attention_heads": heads, "intermediate_size": intermediate,
            "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
            "max_position_embeddings": positions, "type_vocab_size": types, "initializer_range": 0.02,
            "layer_norm_eps": 1e-12, "position_embedding_type": "absolute", "pad_token_id": 0}


def save_safetensors(path, tensors, dtype="F32", metadata=None):
    """Writes a .safetensors file by hand (the safetensors package is not installable here)."""
    header, blobs, offset = ({"__metadata__": metadata} if metadata else {}), [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous()
        data = (t.half() if dtype == "F16" else t.float()).numpy().tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":"))
    text += " " * ((8 - (8 + len(text)) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text.encode())
        for blob in blobs:
            f.write(blob)
