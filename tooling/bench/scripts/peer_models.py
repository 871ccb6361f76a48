"""The MiniLM-shaped bench model as transformers.js loads it, and the float64 reference of the peer bench.

Called by make_bench_models.py after it wrote models/minilm-shaped/ (config.json + model.safetensors).
Adds to that folder, so attnkit and transformers.js read the same weights and the same tokenizer:
  tokenizer.json, tokenizer_config.json  attnkit-tiny-bert's (bert-base-uncased's 30522-word vocab), model_max_length 128
  onnx/model.onnx            Hugging Face BertModel (eager attention), float32, torch.onnx.export:
                             input_ids, attention_mask, token_type_ids -> last_hidden_state
  onnx/model_quantized.onnx  transformers.js' "q8" file, made as its published models are (quantize_q8 below)
  peer-reference.json        the 8 benchmark texts, their token ids, and their embeddings from transformers'
                             BertModel in float64 (mean pooling over the attention mask, then L2 normalize:
                             pipeline('feature-extraction')'s { pooling: 'mean', normalize: true }); the same for
                             the ids transformers.js 4.3.1 makes of them (cut at 128 after [SEP] was added)
Needs torch, transformers, onnx and onnxruntime: the reference venv (.venv-ref, see the README)."""
import inspect
import json
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import torch
import transformers
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.quantization.registry import IntegerOpsRegistry
from safetensors.torch import load_file
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

ROOT = Path(__file__).resolve().parents[3]
TOKENIZER = ROOT / "packages" / "models" / "assets" / "attnkit-tiny-bert"
LENGTH = 128

# Eight fixed English texts, each longer than 128 tokens, so that both tokenizers truncate every one to exactly
# 128 ([CLS] + 126 word pieces + [SEP]) and the batch is 8 x 128 with no padding.
TEXTS = [
    "The old lighthouse stood at the edge of the cliff for more than two hundred years, guiding fishing boats and "
    "merchant ships through the narrow channel between the rocks. Its keeper climbed the spiral stairs every evening "
    "to light the lamp, polish the great lens and write the weather in a leather book. When storms came in from the "
    "west, the waves broke so high that salt spray reached the gallery windows, and the whole tower seemed to hum. "
    "Sailors said that as long as the light turned, nobody would be lost at sea, and for many decades they were "
    "right. Then the harbour silted up, the ships went elsewhere, and the lamp was replaced by an automatic beacon.",
    "Photosynthesis is the process by which green plants, algae and some bacteria turn light into chemical energy. "
    "Inside the chloroplasts, pigments such as chlorophyll absorb red and blue light and pass the energy to reaction "
    "centres, where water molecules are split into oxygen, protons and electrons. The electrons travel along a chain "
    "of proteins that pumps protons across a membrane, and the resulting gradient drives an enzyme that makes ATP. "
    "In a second stage, the Calvin cycle uses that ATP and another carrier molecule to fix carbon dioxide from the "
    "air into sugars. Almost all of the oxygen we breathe and most of the food we eat depend on these reactions.",
    "To bake a simple loaf of bread, mix five hundred grams of strong white flour with ten grams of salt, seven grams "
    "of dried yeast and about three hundred and twenty millilitres of warm water. Knead the dough on a floured table "
    "for ten minutes, until it feels smooth and springs back when you press it with a finger. Put it in an oiled bowl, "
    "cover it with a cloth and leave it somewhere warm for an hour or until it has doubled in size. Knock it back, "
    "shape it into a round, place it on a tray and let it rise again for forty minutes. Bake it in a hot oven for "
    "about half an hour, until the crust is golden and the bottom sounds hollow when tapped.",
    "The city council met on Tuesday evening to discuss the new plan for public transport in the northern districts. "
    "Several residents complained that the buses were often late, overcrowded in the morning and almost empty in the "
    "afternoon, while the nearest train station was a long walk from the new housing estates. The transport director "
    "proposed a network of smaller electric buses running every ten minutes, a protected cycle lane along the main "
    "road and a shuttle that would connect the estates to the station. Some members worried about the cost and the "
    "loss of parking spaces, but after a long debate the council agreed to fund a two year trial of the scheme. A report on the trial will be published next spring.",
    "A good night of sleep does much more than make us feel rested. During the deep stages of sleep, the brain "
    "replays and consolidates memories formed during the day, moving them from short term storage into more stable "
    "networks. Growth hormone is released, damaged tissue is repaired and the immune system produces proteins that "
    "help fight infection. People who regularly sleep less than six hours tend to have slower reactions, more "
    "difficulty concentrating and a higher risk of heart disease and diabetes. Doctors recommend going to bed at a "
    "regular time, keeping the bedroom dark and cool, and avoiding screens, coffee and heavy meals late in the evening. A short walk in daylight each morning also helps the body keep its rhythm.",
    "The expedition left the base camp before sunrise, when the snow was still hard and the crevasses were easier to "
    "see. Each climber carried a rope, an ice axe, crampons, a small stove and enough food for three days. The first "
    "section followed a broad glacier that rose gently towards a pass between two peaks, but above the pass the route "
    "turned into a steep ridge of ice and broken rock. By noon the wind had grown stronger and clouds were gathering "
    "in the valley below. The leader decided to set up a camp on a narrow shelf and wait for the weather to clear, "
    "and that night the tents shook so hard that nobody slept.",
    "Modern software is rarely written by a single person. Teams use version control systems to record every change, "
    "review each other's code before it is merged and run automated tests on every commit to catch mistakes early. "
    "A clear structure helps: small modules with one purpose each, names that say what a function does, and "
    "documentation that explains why a decision was made, not only what the code does. When a bug reaches users, a "
    "good team writes a test that reproduces it before fixing it, so that the same problem cannot quietly return. "
    "Over years, these habits matter more than any single clever algorithm or the choice of programming language.",
    "The museum opened a new exhibition about the history of maps, from clay tablets and painted silk to satellite "
    "images. One room shows how medieval mapmakers filled unknown regions with sea monsters and imaginary islands, "
    "while another explains how sailors measured latitude with the stars and struggled for centuries to measure "
    "longitude until accurate clocks were built. Visitors can compare three maps of the same coastline drawn a "
    "hundred years apart and see how rivers moved, towns grew and forests disappeared. The final room invites people "
    "to draw a map of their own neighbourhood from memory and pin it to a wall beside thousands of others. The exhibition runs until the end of the year, and entry is free for children and students on weekdays.",
]


def hf_model(safetensors_state, config):
    """transformers' BertModel (eager attention, as optimum exports it) with the bench weights."""
    hf_config = BertConfig(**{k: v for k, v in config.items() if k != "architectures"})
    hf_config._attn_implementation = "eager"
    model = BertModel(hf_config, add_pooling_layer=True)
    missing, unexpected = model.load_state_dict(safetensors_state, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise RuntimeError(f"BertModel load: missing {missing}, unexpected {unexpected}")
    return model.eval()


class LastHiddenState(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state


def export_last_hidden_state(model, path):
    ids = torch.randint(1000, 2000, (2, 16))
    torch.onnx.export(LastHiddenState(model), (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(path),
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["last_hidden_state"],
                      dynamic_axes={n: {0: "batch_size", 1: "sequence_length"} for n in ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]},
                      opset_version=14, do_constant_folding=True,
                      **({"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}))


def quantize_q8(source, target):
    """transformers.js' q8 (scripts/quantize.py, quantize_q8 with its defaults, as its published model_quantized.onnx):
    ONNXQuantizer in QuantizationMode.IntegerOps (dynamic), per_channel and reduce_range off (their default None:
    int8 weights, one scale and zero point per tensor, full 8-bit range), weight type QInt8 (QUInt8 only when the
    graph has Conv, GroupQueryAttention or MultiHeadAttention; BERT has none), activations QUInt8 through
    DynamicQuantizeLinear, op types all of IntegerOpsRegistry (MatMul -> MatMulInteger; Gather, i.e. the
    embedding tables, and Transpose too), extra options EnableSubgraph and MatMulConstBOnly (only MatMuls with a
    constant weight: attention's Q·Kᵀ and P·V stay float). quantize_dynamic with these arguments builds that same
    ONNXQuantizer."""
    quantize_dynamic(source, target, op_types_to_quantize=sorted(IntegerOpsRegistry), per_channel=False, reduce_range=False,
                     weight_type=QuantType.QInt8, extra_options={"EnableSubgraph": True, "MatMulConstBOnly": True})


def mean_pool_normalize(hidden, mask):
    mask = mask[..., None].to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(pooled, p=2, dim=1)


def cosines(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def write_peer_files(folder):
    config = json.loads((folder / "config.json").read_text())
    state = load_file(folder / "model.safetensors")

    # tokenizer: attnkit-tiny-bert's, whose vocabulary has the MiniLM-shaped model's 30522 words
    vocab = json.loads((TOKENIZER / "tokenizer.json").read_text())["model"]["vocab"]
    if len(vocab) != config["vocab_size"]:
        raise RuntimeError(f"tokenizer vocab {len(vocab)} != model vocab_size {config['vocab_size']}")
    shutil.copyfile(TOKENIZER / "tokenizer.json", folder / "tokenizer.json")
    tokenizer_config = json.loads((TOKENIZER / "tokenizer_config.json").read_text()) | {"model_max_length": LENGTH}
    (folder / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2) + "\n")
    tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"), model_max_length=LENGTH,
                                        cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]", unk_token="[UNK]", mask_token="[MASK]")
    encoded = tokenizer(TEXTS, padding=True, truncation=True, max_length=LENGTH, return_tensors="pt")
    encoded["token_type_ids"] = torch.zeros_like(encoded["input_ids"])  # one segment, as both JS pipelines feed it
    if list(encoded["input_ids"].shape) != [len(TEXTS), LENGTH] or int(encoded["attention_mask"].min()) != 1:
        raise RuntimeError(f"every text must truncate to exactly {LENGTH} tokens: {encoded['attention_mask'].sum(1).tolist()}")

    # transformers.js 4.3.1 truncates after adding the special tokens, by cutting the list at model_max_length:
    # its 128 ids end in the 127th word piece, not [SEP]. Its ids, for a reference of the same numbers on them.
    cut = tokenizer(TEXTS, truncation=False, return_tensors=None)["input_ids"]
    cut_encoded = {"input_ids": torch.tensor([ids[:LENGTH] for ids in cut])}
    cut_encoded |= {"attention_mask": torch.ones_like(cut_encoded["input_ids"]), "token_type_ids": torch.zeros_like(cut_encoded["input_ids"])}

    # the float64 reference: transformers' BertModel, mean pooling + normalize
    model = hf_model(state, config)
    with torch.no_grad():
        reference = mean_pool_normalize(model.double()(**encoded).last_hidden_state, encoded["attention_mask"])
        cut_reference = mean_pool_normalize(model(**cut_encoded).last_hidden_state, cut_encoded["attention_mask"])
    model.float()

    onnx_folder = folder / "onnx"
    onnx_folder.mkdir(exist_ok=True)
    export_last_hidden_state(model, onnx_folder / "model.onnx")
    quantize_q8(onnx_folder / "model.onnx", onnx_folder / "model_quantized.onnx")
    ops = {node.op_type for node in onnx.load(str(onnx_folder / "model_quantized.onnx")).graph.node}
    if not {"MatMulInteger", "DynamicQuantizeLinear"} <= ops:
        raise RuntimeError(f"model_quantized.onnx lacks MatMulInteger / DynamicQuantizeLinear: {sorted(ops)}")

    # onnxruntime (Python, CPU) on both files, as a check of the files themselves
    feeds = {k: v.numpy().astype(np.int64) for k, v in encoded.items()}
    checks = {}
    for name in ["model.onnx", "model_quantized.onnx"]:
        session = onnxruntime.InferenceSession(str(onnx_folder / name), providers=["CPUExecutionProvider"])
        hidden = torch.from_numpy(session.run(["last_hidden_state"], feeds)[0]).double()
        checks[name] = float(cosines(mean_pool_normalize(hidden, encoded["attention_mask"]), reference).min())
    print(f"peer files: onnxruntime {onnxruntime.__version__} (Python, CPU) cosine vs float64, min over texts: {checks}")

    (folder / "peer-reference.json").write_text(json.dumps({
        "description": "tooling/bench/scripts/peer_models.py: transformers BertModel float64, mean pooling over the attention mask, L2 normalize",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__, "onnxruntime": onnxruntime.__version__},
        "length": LENGTH,
        "texts": TEXTS,
        "inputIds": encoded["input_ids"].tolist(),
        "embeddings": reference.tolist(),
        "cutInputIds": cut_encoded["input_ids"].tolist(),
        "cutEmbeddings": cut_reference.tolist(),
        "cutDescription": "the first 128 ids of each text with special tokens added, no [SEP] kept (transformers.js 4.3.1's truncation), through the same float64 model",
        "onnxruntimePythonCosine": checks,
    }) + "\n")
    print(f"wrote {folder}/tokenizer.json, tokenizer_config.json, onnx/model.onnx, onnx/model_quantized.onnx, peer-reference.json")
