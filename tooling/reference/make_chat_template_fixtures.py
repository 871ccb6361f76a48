"""Writes the chat-template fixtures: three tokenizer folders, each with a chat template in the form a published
model gives it, and what transformers' apply_chat_template makes of several conversations.

Run from the repository root with the reference virtual environment (transformers 5.17, jinja2):

    .venv-ref/bin/python tooling/reference/make_chat_template_fixtures.py

The templates are the Jinja text these models publish (stored here as data):
  llama3    meta-llama/Llama-3.2-1B-Instruct's chat_template (bos_token, a system header with the date, tools in the
            first user message, single tool calls, raise_exception), on the gpt2 decoder fixture's byte-level BPE
            with <|begin_of_text|>, <|start_header_id|>, <|end_header_id|>, <|eot_id|> added as special tokens
            (bos_token <|begin_of_text|>, eos_token <|eot_id|>); saved the legacy way, as the "chat_template" string of
            tokenizer_config.json, with bos_token in the AddedToken object form older transformers versions write
  qwen3     Qwen/Qwen3-0.6B's chat_template (ChatML, tools in the system turn, tool calls and responses, <think> blocks
            split out of earlier assistant turns, enable_thinking), on the qwen3 decoder fixture's tokenizer with
            <|im_start|> and <|im_end|> (already ids 318 and 319 of its vocabulary) added as special tokens; saved the
            transformers 5 way, as chat_template.jinja beside tokenizer_config.json
  smollm2   HuggingFaceTB/SmolLM2-135M-Instruct's chat_template (ChatML with a default system prompt), on the llama
            decoder fixture's SentencePiece-style BPE with <|im_start|> and <|im_end|> added; saved as a list of named
            templates in tokenizer_config.json: "default" (SmolLM2's) and "no_system" (the same without the default
            system prompt)

chat-templates.json holds, per folder, cases of {messages, options (apply_chat_template's keyword arguments),
text (tokenize=False), ids (tokenize=True: the input_ids)}, or {messages, options, error: the exception's class
and message} where transformers refuses. Llama's template reads the date from strftime_now unless date_string is
given, so every llama3 case passes date_string (an extra keyword argument, given to the template as a variable).

"generation" is the tokenizer-level check of `attnkit generate --chat`: the qwen3 decoder fixture's model
(config.json, generation_config.json, model.safetensors) with the qwen3 chat folder's tokenizer files, a user
message rendered with add_generation_prompt=True, and its greedy continuation (generate(do_sample=False,
max_new_tokens=8), the folder's end-of-sequence ids) as token ids, in float32 and float64 (asserted equal). No
network is used; the output is deterministic.
"""
import json
import shutil
import tempfile
import warnings
from pathlib import Path

import jinja2
import torch
import transformers
from tokenizers import AddedToken
from transformers import AutoModelForCausalLM, AutoTokenizer

warnings.filterwarnings("ignore")
transformers.logging.set_verbosity_error()

ROOT = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"
DECODERS = FIXTURES / "decoders"
FOLDERS = FIXTURES / "chat-templates"
GENERATOR = "tooling/reference/make_chat_template_fixtures.py"

# meta-llama/Llama-3.2-1B-Instruct, tokenizer_config.json "chat_template"
LLAMA3 = """{{- bos_token }}
{%- if custom_tools is defined %}
    {%- set tools = custom_tools %}
{%- endif %}
{%- if not tools_in_user_message is defined %}
    {%- set tools_in_user_message = true %}
{%- endif %}
{%- if not date_string is defined %}
    {%- if strftime_now is defined %}
        {%- set date_string = strftime_now("%d %b %Y") %}
    {%- else %}
        {%- set date_string = "26 Jul 2024" %}
    {%- endif %}
{%- endif %}
{%- if not tools is defined %}
    {%- set tools = none %}
{%- endif %}

{#- This block extracts the system message, so we can slot it into the right place. #}
{%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content']|trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_message = "" %}
{%- endif %}

{#- System message #}
{{- "<|start_header_id|>system<|end_header_id|>\\n\\n" }}
{%- if tools is not none %}
    {{- "Environment: ipython\\n" }}
{%- endif %}
{{- "Cutting Knowledge Date: December 2023\\n" }}
{{- "Today Date: " + date_string + "\\n\\n" }}
{%- if tools is not none and not tools_in_user_message %}
    {{- "You have access to the following functions. To call a function, please respond with JSON for a function call." }}
    {{- 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' }}
    {{- "Do not use variables.\\n\\n" }}
    {%- for t in tools %}
        {{- t | tojson(indent=4) }}
        {{- "\\n\\n" }}
    {%- endfor %}
{%- endif %}
{{- system_message }}
{{- "<|eot_id|>" }}

{#- Custom tools are passed in a user message with some extra guidance #}
{%- if tools_in_user_message and not tools is none %}
    {#- Extract the first user message so we can plug it in here #}
    {%- if messages | length != 0 %}
        {%- set first_user_message = messages[0]['content']|trim %}
        {%- set messages = messages[1:] %}
    {%- else %}
        {{- raise_exception("Cannot put tools in the first user message when there's no first user message!") }}
{%- endif %}
    {{- '<|start_header_id|>user<|end_header_id|>\\n\\n' -}}
    {{- "Given the following functions, please respond with a JSON for a function call " }}
    {{- "with its proper arguments that best answers the given prompt.\\n\\n" }}
    {{- 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' }}
    {{- "Do not use variables.\\n\\n" }}
    {%- for t in tools %}
        {{- t | tojson(indent=4) }}
        {{- "\\n\\n" }}
    {%- endfor %}
    {{- first_user_message + "<|eot_id|>"}}
{%- endif %}

{%- for message in messages %}
    {%- if not (message.role == 'ipython' or message.role == 'tool' or 'tool_calls' in message) %}
        {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'+ message['content'] | trim + '<|eot_id|>' }}
    {%- elif 'tool_calls' in message %}
        {%- if not message.tool_calls|length == 1 %}
            {{- raise_exception("This model only supports single tool-calls at once!") }}
        {%- endif %}
        {%- set tool_call = message.tool_calls[0].function %}
        {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' -}}
        {{- '{"name": "' + tool_call.name + '", ' }}
        {{- '"parameters": ' }}
        {{- tool_call.arguments | tojson }}
        {{- "}" }}
        {{- "<|eot_id|>" }}
    {%- elif message.role == "tool" or message.role == "ipython" %}
        {{- "<|start_header_id|>ipython<|end_header_id|>\\n\\n" }}
        {%- if message.content is mapping or message.content is iterable %}
            {{- message.content | tojson }}
        {%- else %}
            {{- message.content }}
        {%- endif %}
        {{- "<|eot_id|>" }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
{%- endif %}
"""

# Qwen/Qwen3-0.6B, tokenizer_config.json "chat_template"
QWEN3 = """{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\\n\\n' }}
    {%- endif %}
    {{- "# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0].role == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and message.content is string and not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
        {%- set ns.multi_step_tool = false %}
        {%- set ns.last_query_index = index %}
    {%- endif %}
{%- endfor %}
{%- for message in messages %}
    {%- if message.content is string %}
        {%- set content = message.content %}
    {%- else %}
        {%- set content = '' %}
    {%- endif %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\\n' + content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {%- set reasoning_content = '' %}
        {%- if message.reasoning_content is string %}
            {%- set reasoning_content = message.reasoning_content %}
        {%- else %}
            {%- if '</think>' in content %}
                {%- set reasoning_content = content.split('</think>')[0].rstrip('\\n').split('<think>')[-1].lstrip('\\n') %}
                {%- set content = content.split('</think>')[-1].lstrip('\\n') %}
            {%- endif %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index %}
            {%- if loop.last or (not loop.last and reasoning_content) %}
                {{- '<|im_start|>' + message.role + '\\n<think>\\n' + reasoning_content.strip('\\n') + '\\n</think>\\n\\n' + content.lstrip('\\n') }}
            {%- else %}
                {{- '<|im_start|>' + message.role + '\\n' + content }}
            {%- endif %}
        {%- else %}
            {{- '<|im_start|>' + message.role + '\\n' + content }}
        {%- endif %}
        {%- if message.tool_calls %}
            {%- for tool_call in message.tool_calls %}
                {%- if (loop.first and content) or (not loop.first) %}
                    {{- '\\n' }}
                {%- endif %}
                {%- if tool_call.function %}
                    {%- set tool_call = tool_call.function %}
                {%- endif %}
                {{- '<tool_call>\\n{"name": "' }}
                {{- tool_call.name }}
                {{- '", "arguments": ' }}
                {%- if tool_call.arguments is string %}
                    {{- tool_call.arguments }}
                {%- else %}
                    {{- tool_call.arguments | tojson }}
                {%- endif %}
                {{- '}\\n</tool_call>' }}
            {%- endfor %}
        {%- endif %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if loop.first or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\\n\\n</think>\\n\\n' }}
    {%- endif %}
{%- endif %}"""

# HuggingFaceTB/SmolLM2-135M-Instruct, tokenizer_config.json "chat_template"
SMOLLM2 = """{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system
You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
' }}{% endif %}{{'<|im_start|>' + message['role'] + '
' + message['content'] + '<|im_end|>' + '
'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
' }}{% endif %}"""

SMOLLM2_NO_SYSTEM = """{% for message in messages %}{{'<|im_start|>' + message['role'] + '
' + message['content'] + '<|im_end|>' + '
'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant
' }}{% endif %}"""

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city, e.g. Zürich or 東京",
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "the city"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]},
    },
}
TIME_TOOL = {"type": "function", "function": {"name": "get_time", "description": "The time now", "parameters": {"type": "object", "properties": {}}}}

SYSTEM = {"role": "system", "content": "You are a concise assistant. "}
USER = {"role": "user", "content": "What is the capital of France?"}
ASSISTANT = {"role": "assistant", "content": "Paris."}
USER2 = {"role": "user", "content": "And of Japan? ça coûte 😀"}
PARTIAL = {"role": "assistant", "content": "The capital of Japan is"}
DATE = {"date_string": "26 Jul 2024"}

LLAMA3_CASES = [
    ("system and user, generation prompt", [SYSTEM, USER], {"add_generation_prompt": True}),
    ("user only, no generation prompt", [USER], {}),
    ("three turns, generation prompt", [USER, ASSISTANT, USER2], {"add_generation_prompt": True}),
    ("three turns, no generation prompt", [SYSTEM, USER, ASSISTANT, USER2], {"add_generation_prompt": False}),
    ("continue the final message", [USER, PARTIAL], {"continue_final_message": True}),
    ("tools in the first user message", [SYSTEM, {"role": "user", "content": "Weather in Paris?"}], {"tools": [WEATHER_TOOL], "add_generation_prompt": True}),
    ("tools in the system message", [{"role": "user", "content": "Weather in Paris?"}], {"tools": [WEATHER_TOOL], "tools_in_user_message": False, "add_generation_prompt": True}),
    ("a tool call and its result", [{"role": "user", "content": "Weather in Paris?"}, {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, {"role": "tool", "content": {"temperature": 21, "sky": "clear"}}], {"tools": [WEATHER_TOOL], "add_generation_prompt": True}),
    ("two tool calls: raise_exception", [{"role": "user", "content": "Weather?"}, {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}, {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Rome"}}}]}], {}),
    ("tools and no user message: raise_exception", [SYSTEM], {"tools": [WEATHER_TOOL]}),
]

QWEN3_CASES = [
    ("user only, generation prompt", [USER], {"add_generation_prompt": True}),
    ("system and user, no generation prompt", [SYSTEM, USER], {}),
    ("thinking disabled", [USER], {"add_generation_prompt": True, "enable_thinking": False}),
    ("earlier reasoning dropped", [USER, {"role": "assistant", "content": "<think>\nThe user asks about France.\n</think>\n\nParis."}, USER2], {"add_generation_prompt": True}),
    ("last reasoning kept", [USER, {"role": "assistant", "content": "<think>\nFrance: Paris.\n</think>\n\nParis."}], {}),
    ("reasoning_content field", [USER, {"role": "assistant", "content": "Paris.", "reasoning_content": "Easy."}], {}),
    ("tools, a call and two responses", [SYSTEM, {"role": "user", "content": "Weather and time in 東京?"}, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "東京"}}}, {"type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}, {"role": "tool", "content": "{\"temperature\": 21}"}, {"role": "tool", "content": "12:00"}], {"tools": [WEATHER_TOOL, TIME_TOOL], "add_generation_prompt": True}),
    ("continue the final message", [USER, PARTIAL], {"continue_final_message": True}),
    ("both generation prompt and continue", [USER, PARTIAL], {"continue_final_message": True, "add_generation_prompt": True}),
]

SMOLLM2_CASES = [
    ("default system prompt", [USER], {"add_generation_prompt": True}),
    ("given system prompt", [SYSTEM, USER, ASSISTANT], {}),
    ("named template", [USER, ASSISTANT, USER2], {"chat_template": "no_system", "add_generation_prompt": True}),
    ("continue the final message", [SYSTEM, USER, PARTIAL], {"continue_final_message": True}),
    ("trailing spaces kept on continue", [USER, {"role": "assistant", "content": "Paris is  "}], {"continue_final_message": True}),
    ("empty conversation", [], {}),
]


def log(*args):
    print(*args, flush=True)


def special(text):
    return AddedToken(text, special=True, normalized=False, lstrip=False, rstrip=False, single_word=False)


def build(name):
    """The folder's tokenizer, with its special tokens and chat template, saved as the docstring says."""
    folder = FOLDERS / name
    shutil.rmtree(folder, ignore_errors=True)
    if name == "llama3":
        tok = AutoTokenizer.from_pretrained(DECODERS / "gpt2")
        tokens = ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
        tok.add_special_tokens({"bos_token": special(tokens[0]), "eos_token": special(tokens[3]), "extra_special_tokens": [special(t) for t in tokens[1:3]]})
        tok.chat_template = LLAMA3
        tok.save_pretrained(folder, save_jinja_files=False)
    elif name == "qwen3":
        tok = AutoTokenizer.from_pretrained(DECODERS / "qwen3")
        tok.add_special_tokens({"extra_special_tokens": [special("<|im_start|>"), special("<|im_end|>")]})
        assert tok.convert_tokens_to_ids(["<|im_start|>", "<|im_end|>"]) == [318, 319]
        tok.chat_template = QWEN3
        tok.save_pretrained(folder)
        assert (folder / "chat_template.jinja").exists()
    else:
        tok = AutoTokenizer.from_pretrained(DECODERS / "llama")
        tok.add_special_tokens({"extra_special_tokens": [special("<|im_start|>"), special("<|im_end|>")]})
        tok.chat_template = {"default": SMOLLM2, "no_system": SMOLLM2_NO_SYSTEM}
        tok.save_pretrained(folder, save_jinja_files=False)
    for extra in ["special_tokens_map.json", "added_tokens.json"]:
        (folder / extra).unlink(missing_ok=True)
    config_file = folder / "tokenizer_config.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    for key in ["is_local", "local_files_only"]:  # load-time arguments save_pretrained writes too
        config.pop(key, None)
    if name == "llama3":  # the AddedToken form older transformers versions write (and read back as the token's content)
        config["bos_token"] = {"__type": "AddedToken", "content": config["bos_token"], "lstrip": False, "normalized": False, "rstrip": False, "single_word": False, "special": True}
    config_file.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    reloaded = AutoTokenizer.from_pretrained(folder)
    assert reloaded.chat_template == tok.chat_template
    assert reloaded.bos_token == tok.bos_token and reloaded.eos_token == tok.eos_token
    return reloaded


def case(tok, title, messages, options):
    out = {"title": title, "messages": messages, "options": options}
    try:
        text = tok.apply_chat_template(messages, tokenize=False, **options)
        ids = tok.apply_chat_template(messages, tokenize=True, **options)["input_ids"]
    except (ValueError, jinja2.exceptions.TemplateError) as error:
        out["error"] = {"type": type(error).__name__, "message": str(error)}
        return out
    assert tok(text, add_special_tokens=False).input_ids == ids
    out["text"] = text
    out["ids"] = ids
    return out


def generation(qwen3_chat):
    """Greedy generation of the qwen3 decoder fixture from a chat-templated prompt (what attnkit generate --chat does)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for file in ["config.json", "generation_config.json", "model.safetensors"]:
            shutil.copy(DECODERS / "qwen3" / file, folder / file)
        for file in qwen3_chat.iterdir():
            shutil.copy(file, folder / file.name)
        tok = AutoTokenizer.from_pretrained(folder)
        messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello world, the quick brown fox"}]
        ids = tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt")["input_ids"]
        new = {}
        for dtype in [torch.float64, torch.float32]:
            model = AutoModelForCausalLM.from_pretrained(folder, dtype=dtype).eval()
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=8)
            new[dtype] = out[0, ids.shape[1]:].tolist()
        assert new[torch.float64] == new[torch.float32], "float32 and float64 greedy differ"
        return {"messages": messages, "prompt_ids": ids[0].tolist(), "new_tokens": new[torch.float64], "max_new_tokens": 8, "eos_token_id": model.generation_config.eos_token_id}


def main():
    FOLDERS.mkdir(parents=True, exist_ok=True)
    payload = {"generator": GENERATOR, "transformers": transformers.__version__, "jinja2": jinja2.__version__, "folders": {}}
    for name, cases, extra in [("llama3", LLAMA3_CASES, DATE), ("qwen3", QWEN3_CASES, {}), ("smollm2", SMOLLM2_CASES, {})]:
        tok = build(name)
        results = [case(tok, title, messages, {**options, **extra}) for title, messages, options in cases]
        payload["folders"][name] = {"folder": f"chat-templates/{name}", "cases": results}
        files = sorted(p.name for p in (FOLDERS / name).iterdir())
        log(f"{name}: {files}, {len(results)} cases, {sum('error' in r for r in results)} refused")
    payload["generation"] = {"folder": "chat-templates/qwen3", "model": "decoders/qwen3", **generation(FOLDERS / "qwen3")}
    log(f"generation: {len(payload['generation']['prompt_ids'])} prompt ids -> {payload['generation']['new_tokens']}")
    path = FIXTURES / "chat-templates.json"
    path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    log(f"chat-templates.json: {path.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
