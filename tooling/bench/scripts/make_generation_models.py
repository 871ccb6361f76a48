#!/usr/bin/python3
"""The generation bench models (src/generation/; not committed, `bench:generation` runs this when they are missing).

Writes into tooling/bench/models/:
  smollm-shaped/  a SmolLM-135M-shaped random Llama: 30 layers, hidden 576, 9 heads, 3 key/value heads,
                  intermediate 1536, vocab 49152, tied embeddings, rope theta 100000 (134.5 M parameters)
  gpt2-shaped/    a GPT-2-small-shaped random GPT-2: 12 layers, 768 wide, 12 heads, vocab 50257, 1024
                  positions, tied embeddings (124.4 M parameters)
each a Hugging Face folder (config.json, generation_config.json, model.safetensors, tokenizer.json +
tokenizer_config.json: the llama / gpt2 decoder fixture's byte-level BPE of tooling/reference/fixtures/decoders,
320 tokens, whose ids all lie inside the model's vocabulary; the bench feeds token ids, not text) plus the
files transformers.js 4.3.1 loads for a decoder:
  onnx/model.onnx            float32, torch.onnx.export (TorchScript tracing, eager attention) of a wrapper:
                             inputs  input_ids [B, T], attention_mask [B, past + T], position_ids [B, T],
                                     num_logits_to_keep [] (int64; 0 = all positions, n = the last n: what
                                     transformers.js feeds when the session has it, 1 while generating),
                                     past_key_values.{i}.key / .value [B, kvH, past, D] (past may be 0)
                             outputs logits [B, T or n, V], present.{i}.key / .value [B, kvH, past + T, D]
                             (transformers.js fills position_ids from the attention mask, an empty cache from
                             the inputs' metadata: dims 1 and 3 are numbers, batch_size and past_sequence_length names)
  onnx/model_quantized.onnx  transformers.js' q8, made as its own quantize script does (peer_models.quantize_q8:
                             quantize_dynamic, int8 weights, MatMulInteger, per tensor)
  generation-reference.json  the benchmark prompts (4 rows of 128 token ids), PyTorch's float32 greedy tokens for
                             them (64 new, eos off), and the checks below
Checks (the script fails when one does not hold): onnxruntime's (Python, CPU) logits of model.onnx equal
transformers' float32 logits within 1e-4 for a 128-token prompt (batch 4, all positions) and for a one-token
decode step over that prompt's cache; the quantized file's greedy first token is reported, not checked.
Needs torch, transformers, onnx, onnxruntime: the reference venv (.venv-ref/bin/python).
Usage: .venv-ref/bin/python tooling/bench/scripts/make_generation_models.py [--only smollm-shaped|gpt2-shaped]"""
import argparse
import inspect
import json
import shutil
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import torch
import transformers
from transformers import DynamicCache, GenerationConfig, GPT2Config, GPT2LMHeadModel, LlamaConfig, LlamaForCausalLM

from peer_models import quantize_q8

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "tooling" / "bench" / "models"
TOKENIZERS = ROOT / "tooling" / "reference" / "fixtures" / "decoders"
PROMPT_LENGTH = 128
BATCH = 4
NEW_TOKENS = 64
TOLERANCE = 1e-4


def prompts(vocab):
    """4 rows of 128 token ids, spread over the vocabulary (the bench's batch 1 uses row 0)."""
    return [[((i + 37 * b) * 7919 + 13 + 101 * b) % vocab for i in range(PROMPT_LENGTH)] for b in range(BATCH)]


def specs():
    llama = LlamaConfig(vocab_size=49152, hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9,
                        num_key_value_heads=3, max_position_embeddings=8192, rope_parameters={"rope_type": "default", "rope_theta": 100000.0},
                        tie_word_embeddings=True, bos_token_id=1, eos_token_id=2, initializer_range=0.02, rms_norm_eps=1e-5)
    gpt2 = GPT2Config(vocab_size=50257, n_embd=768, n_layer=12, n_head=12, n_positions=1024, tie_word_embeddings=True,
                      bos_token_id=50256, eos_token_id=50256, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    return [("smollm-shaped", "llama", LlamaForCausalLM, llama, 7), ("gpt2-shaped", "gpt2", GPT2LMHeadModel, gpt2, 11)]


class Exported(torch.nn.Module):
    """(input_ids, attention_mask, position_ids, num_logits_to_keep, *past) -> (logits, *present)."""

    def __init__(self, model, layers):
        super().__init__()
        self.model = model
        self.layers = layers

    def forward(self, input_ids, attention_mask, position_ids, num_logits_to_keep, *past):
        cache = DynamicCache(ddp_cache_data=[(past[2 * i], past[2 * i + 1]) for i in range(self.layers)], config=self.model.config)
        out = self.model.base_model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, past_key_values=cache, use_cache=True)
        hidden = out.last_hidden_state
        length = hidden.shape[1]
        # the last num_logits_to_keep positions (0: all), with tensor arithmetic so that the trace keeps it an input
        start = torch.remainder(length - num_logits_to_keep, length)
        hidden = hidden.index_select(1, torch.arange(start, length, device=hidden.device))
        logits = self.model.lm_head(hidden)
        presents = []
        for layer in out.past_key_values.layers:
            presents += [layer.keys, layer.values]
        return (logits, *presents)


def cache_shape(config):
    heads = config.num_attention_heads
    kv_heads = getattr(config, "num_key_value_heads", None) or heads
    return kv_heads, config.hidden_size // heads


def export(model, config, path):
    layers = config.num_hidden_layers
    kv_heads, head_dim = cache_shape(config)
    batch, length, past_length = 2, 5, 3
    ids = torch.randint(0, config.vocab_size, (batch, length))
    mask = torch.ones(batch, past_length + length, dtype=torch.int64)
    positions = torch.arange(past_length, past_length + length).expand(batch, length).contiguous()
    past = [torch.randn(batch, kv_heads, past_length, head_dim) for _ in range(2 * layers)]
    past_names = [f"past_key_values.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    present_names = [f"present.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]
    axes = {"input_ids": {0: "batch_size", 1: "sequence_length"}, "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
            "position_ids": {0: "batch_size", 1: "sequence_length"}, "logits": {0: "batch_size", 1: "logits_length"}}
    axes |= {name: {0: "batch_size", 2: "past_sequence_length"} for name in past_names}
    axes |= {name: {0: "batch_size", 2: "total_sequence_length"} for name in present_names}
    torch.onnx.export(Exported(model, layers), (ids, mask, positions, torch.tensor(1, dtype=torch.int64), *past), str(path),
                      input_names=["input_ids", "attention_mask", "position_ids", "num_logits_to_keep", *past_names],
                      output_names=["logits", *present_names], dynamic_axes=axes, opset_version=17, do_constant_folding=True,
                      **({"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}))


def feeds_for(config, ids, past=None, keep=0):
    layers = config.num_hidden_layers
    kv_heads, head_dim = cache_shape(config)
    batch, length = ids.shape
    past_length = 0 if past is None else past[0].shape[2]
    feeds = {"input_ids": ids.astype(np.int64), "attention_mask": np.ones((batch, past_length + length), dtype=np.int64),
             "position_ids": np.tile(np.arange(past_length, past_length + length, dtype=np.int64), (batch, 1)),
             "num_logits_to_keep": np.array(keep, dtype=np.int64)}
    for i in range(layers):
        for j, kind in enumerate(("key", "value")):
            feeds[f"past_key_values.{i}.{kind}"] = np.zeros((batch, kv_heads, 0, head_dim), np.float32) if past is None else past[2 * i + j]
    return feeds


def check_onnx(model, config, folder, prompt):
    """onnxruntime's logits against transformers' float32: the prompt (all positions) and one decode step over its cache."""
    ids = np.array(prompt, dtype=np.int64)
    next_ids = ids[:, -1:] * 0 + 5
    with torch.no_grad():
        full = model(torch.from_numpy(ids), use_cache=True)
        step = model(torch.from_numpy(next_ids), past_key_values=full.past_key_values, use_cache=True)
        full_logits = model(torch.from_numpy(ids)).logits.numpy()
        step_logits = step.logits.numpy()
    checks = {}
    for name in ["model.onnx", "model_quantized.onnx"]:
        session = onnxruntime.InferenceSession(str(folder / "onnx" / name), providers=["CPUExecutionProvider"])
        outputs = session.run(None, feeds_for(config, ids))
        past = outputs[1:]
        step_out = session.run(None, feeds_for(config, next_ids, past, keep=1))
        last = session.run(None, feeds_for(config, ids, keep=1))[0]
        checks[name] = {"prompt_max_abs": float(np.abs(outputs[0] - full_logits).max()), "decode_step_max_abs": float(np.abs(step_out[0] - step_logits).max()),
                        "keep_1_max_abs": float(np.abs(last - full_logits[:, -1:]).max()), "logits_shape_keep_1": list(last.shape),
                        "greedy_first_token_equal": bool((outputs[0][:, -1].argmax(-1) == full_logits[:, -1].argmax(-1)).all())}
    print(f"{folder.name}: onnxruntime {onnxruntime.__version__} vs transformers float32 logits: {json.dumps(checks)}")
    exact = checks["model.onnx"]
    if max(exact["prompt_max_abs"], exact["decode_step_max_abs"], exact["keep_1_max_abs"]) > TOLERANCE or exact["logits_shape_keep_1"][1] != 1:
        raise RuntimeError(f"{folder.name}/onnx/model.onnx differs from transformers by more than {TOLERANCE}: {exact}")
    return checks


def greedy(model, prompt):
    """PyTorch float32 greedy: NEW_TOKENS new tokens per row, eos off."""
    with torch.no_grad():
        out = model.generate(torch.tensor(prompt), attention_mask=torch.ones(len(prompt), len(prompt[0]), dtype=torch.int64),
                             max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS, do_sample=False, eos_token_id=None, pad_token_id=0,
                             output_scores=True, return_dict_in_generate=True)
    tokens = out.sequences[:, len(prompt[0]):].tolist()
    # the gap between the best and second-best logit at every step: random weights give near-ties
    margins = [float((s.topk(2).values[:, 0] - s.topk(2).values[:, 1]).min()) for s in out.scores]
    return tokens, margins


def make(name, tokenizer, cls, config, seed):
    folder = OUT / name
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "onnx").mkdir(parents=True)
    started = time.time()
    torch.manual_seed(seed)
    config._attn_implementation = "eager"
    model = cls(config).eval()
    model.save_pretrained(folder, safe_serialization=True)
    GenerationConfig(bos_token_id=config.bos_token_id, eos_token_id=config.eos_token_id).save_pretrained(folder)
    for file in ["tokenizer.json", "tokenizer_config.json"]:
        shutil.copyfile(TOKENIZERS / tokenizer / file, folder / file)
    export(model, config, folder / "onnx" / "model.onnx")
    quantize_q8(folder / "onnx" / "model.onnx", folder / "onnx" / "model_quantized.onnx")
    ops = {node.op_type for node in onnx.load(str(folder / "onnx" / "model_quantized.onnx"), load_external_data=False).graph.node}
    if "MatMulInteger" not in ops:
        raise RuntimeError(f"{name}: model_quantized.onnx has no MatMulInteger: {sorted(ops)}")
    prompt = prompts(config.vocab_size)
    checks = check_onnx(model, config, folder, prompt)
    tokens, margins = greedy(model, prompt)
    parameters = sum(p.numel() for p in model.parameters())
    (folder / "generation-reference.json").write_text(json.dumps({
        "generator": "tooling/bench/scripts/make_generation_models.py",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__, "onnxruntime": onnxruntime.__version__},
        "parameters": parameters,
        "prompts": prompt,
        "newTokens": NEW_TOKENS,
        "torchGreedy": tokens,
        "torchGreedyMinMargin": margins,
        "onnxChecks": checks,
        "files": {p.name: p.stat().st_size for p in [folder / "model.safetensors", folder / "onnx" / "model.onnx", folder / "onnx" / "model_quantized.onnx"]},
    }) + "\n")
    print(f"{name}: {parameters / 1e6:.1f} M parameters, written in {time.time() - started:.0f} s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--only")
    args = parser.parse_args()
    for name, tokenizer, cls, config, seed in specs():
        if args.only is None or args.only == name:
            make(name, tokenizer, cls, config, seed)


if __name__ == "__main__":
    main()
