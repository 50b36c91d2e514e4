"""Tiny random decoder-only models carrying the released checkpoints' options, for the tests (build time:
torch, transformers).

A Hugging Face folder like the real ones: config.json and generation_config.json with every key of the
released file (Qwen3-1.7B; HY-MT1.5-1.8B, a HunYuan dense model; Gemma 3 4B's text model, and
TranslateGemma 4B's multimodal checkpoint), sizes shrunk and token ids those of the tiny tokenizer's
tokens of the same roles; weights saved in bfloat16, as released; a byte-level BPE tokenizer.json
trained on assets/corpus with the model's own special tokens; and the model's chat template.

Where the files come from (the real files cannot be downloaded on the machines the tests run on):
- Qwen3: config.json and generation_config.json as Qwen/Qwen3-1.7B publishes them; the chat template is
  Qwen3's, as public code vendors it.
- HY-MT1.5: the chat template has the structure of the released chat_template.jinja (its
  add_generation_prompt branch: ``<｜hy_Assistant｜>`` or else ``<｜hy_place▁holder▁no▁8｜>``), as two public
  copies give it (a port of the Hy-MT template, and a Rockchip note quoting the released file); its
  config.json could not be read here, so the HunYuan dense options come from the issue's reading of the
  real file (dynamic rope with alpha 1000, 262,144 positions, eos and pad) and a public copy of a HunYuan
  dense config; generation_config.json has the card's sampling settings.
- Gemma 3: gemma-3-4b-it's config.json as released, a Gemma3ForConditionalGeneration whose text_config
  sets only hidden_size, intermediate_size, num_hidden_layers, rope_scaling (linear ×8) and sliding_window
  and leaves the rest to Gemma3TextConfig's defaults (8 heads, 4 key/value heads, head_dim 256, the layer
  pattern of sliding_window_pattern 6…), as three public copies of the file give it; its
  generation_config.json (cache_implementation "hybrid", eos <eos> and <end_of_turn>) and its chat template.
  "gemma3-1b" is the text-only checkpoint, gemma-3-1b-it's Gemma3ForCausalLM config.json (every key set, and
  sliding_window_pattern), as a public copy gives it.
- TranslateGemma: its config.json is gemma-3-4b-it's (the same text_config that sets only a few fields); the
  template could not be read here. TRANSLATEGEMMA_TEMPLATE is a stand-in written from
  the card's description (one user entry with source_lang_code and target_lang_code, codes mapped to names
  by the template, an unknown code refused) and the prompt text public code quotes; its languages are the
  ones Fanyi offers (export/loaders/gemma3.py). Its generation_config.json is a third-party copy's: only <eos>
  ends a sequence.

config.json is written with the released file's keys only (save_pretrained writes every value), so the
converter meets the defaults a released file leaves out. Sizes are shrunk (layers, width, heads, vocabulary:
the one key added to gemma-3-4b-it's text_config is the tiny vocabulary's size) and so is Gemma 3's sliding
window (1024 → 16), so that the tests' short prompts cross it; six layers, so that the default pattern has a
global layer.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

from fanyi.export.loaders.gemma3 import LANGUAGES as GEMMA3_LANGUAGES
from fanyi.paths import assets_dir

QWEN3_TEMPLATE = """{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\\n\\n' }}
    {%- endif %}
    {{- "# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with \
function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within \
<tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\
\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0].role == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and message.content is string and \
not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
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
                {%- set reasoning_content = content.split('</think>')[0].rstrip('\\n').split('<think>')[-1]\
.lstrip('\\n') %}
                {%- set content = content.split('</think>')[-1].lstrip('\\n') %}
            {%- endif %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index %}
            {%- if loop.last or (not loop.last and reasoning_content) %}
                {{- '<|im_start|>' + message.role + '\\n<think>\\n' + reasoning_content.strip('\\n') + \
'\\n</think>\\n\\n' + content.lstrip('\\n') }}
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
HUNYUAN_TEMPLATE = (
    "{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}"
    "{% set system_message = messages[0]['content'] %}"
    "<｜hy_begin▁of▁sentence｜>{{ system_message }}<｜hy_place▁holder▁no▁3｜>"
    "{% else %}{% set loop_messages = messages %}<｜hy_begin▁of▁sentence｜>{% endif %}"
    "{% for message in loop_messages %}"
    "{% if message['role'] == 'user' %}<｜hy_User｜>{{ message['content'] }}"
    "{% elif message['role'] == 'assistant' %}<｜hy_Assistant｜>{{ message['content'] }}<｜hy_place▁holder▁no▁2｜>"
    "{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<｜hy_Assistant｜>{% else %}<｜hy_place▁holder▁no▁8｜>{% endif %}"
)
GEMMA3_TEMPLATE = """{{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
    {%- if messages[0]['content'] is string -%}
        {%- set first_user_prefix = messages[0]['content'] + '\\n\\n' -%}
    {%- else -%}
        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\\n\\n' -%}
    {%- endif -%}
    {%- set loop_messages = messages[1:] -%}
{%- else -%}
    {%- set first_user_prefix = "" -%}
    {%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {%- if (message['role'] == 'assistant') -%}
        {%- set role = "model" -%}
    {%- else -%}
        {%- set role = message['role'] -%}
    {%- endif -%}
    {{ '<start_of_turn>' + role + '\\n' + (first_user_prefix if loop.first else "") }}
    {%- if message['content'] is string -%}
        {{ message['content'] | trim }}
    {%- elif message['content'] is iterable -%}
        {%- for item in message['content'] -%}
            {%- if item['type'] == 'image' -%}
                {{ '<start_of_image>' }}
            {%- elif item['type'] == 'text' -%}
                {{ item['text'] | trim }}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {{ raise_exception("Invalid content type") }}
    {%- endif -%}
    {{ '<end_of_turn>\\n' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{'<start_of_turn>model\\n'}}
{%- endif -%}
"""
# the stand-in's map: the codes Fanyi offers, by the names the prompt gives them (yue is not among them)
_TRANSLATEGEMMA_NAMES = "{" + ", ".join(f'"{c}": "{e}"' for c, (e, _zh) in GEMMA3_LANGUAGES.items()) + "}"
TRANSLATEGEMMA_TEMPLATE = (
    "{%- set languages = " + _TRANSLATEGEMMA_NAMES + " -%}\n"
    "{%- macro language(code) -%}"
    "{%- set key = code | replace('_', '-') -%}"
    "{%- if key in languages -%}{{ languages[key] }}"
    "{%- elif key.split('-')[0] in languages -%}{{ languages[key.split('-')[0]] }}"
    "{%- else -%}{{ raise_exception('Unsupported language code: ' + code) }}{%- endif -%}"
    "{%- endmacro -%}\n"
    "{{ bos_token }}"
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'user' -%}"
    "{%- if message['content'] is string or message['content'] | length != 1 -%}"
    "{{ raise_exception('User content must be a list of exactly one entry') }}{%- endif -%}"
    "{%- set item = message['content'][0] -%}"
    "{%- set source = language(item['source_lang_code']) -%}"
    "{%- set target = language(item['target_lang_code']) -%}"
    "{{ '<start_of_turn>user\\n' }}"
    "{{ 'You are a professional ' + source + ' (' + item['source_lang_code'] + ') to ' + target + ' ('"
    " + item['target_lang_code'] + ') translator. Your goal is to accurately convey the meaning and nuances of the"
    " original ' + source + ' text while adhering to ' + target + ' grammar, vocabulary, and cultural"
    " sensitivities.\\nProduce only the ' + target + ' translation, without any additional explanations or"
    " commentary. Please translate the following ' + source + ' text into ' + target + ':\\n\\n\\n' }}"
    "{{ item['text'] | trim }}{{ '<end_of_turn>\\n' }}"
    "{%- elif message['role'] == 'assistant' -%}"
    "{{ '<start_of_turn>model\\n' + message['content'] | trim + '<end_of_turn>\\n' }}"
    "{%- else -%}{{ raise_exception('TranslateGemma supports only user and assistant roles') }}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '<start_of_turn>model\\n' }}{%- endif -%}"
)


@dataclass(frozen=True)
class TinyLlm:
    layers: int = 2
    hidden: int = 64
    heads: int = 4
    kv_heads: int = 2
    head_dim: int = 16
    ffn: int = 128
    vocab: int = 900  # BPE merges learned on the corpus, before the special tokens
    gain: float = 2.0  # linear weights ~ N(0, gain² / fan_in): outputs depend on the prompt
    extra: dict[str, Any] = field(default_factory=dict)  # config.json fields to set besides the released ones


# Gemma 3 4B's text_config leaves the heads to Gemma3TextConfig's defaults (8 heads, 4 key/value heads of 256); a
# width whose √ is not exact in bfloat16 (√96 ≈ 9.798 → 9.8125); six layers, the default pattern's five local
# and one global
GEMMA3_SHAPE = TinyLlm(layers=6, hidden=96, heads=8, kv_heads=4, head_dim=256, ffn=192)
# gemma-3-1b-it sets its heads (4, 1 key/value head of 256)
GEMMA3_1B_SHAPE = TinyLlm(layers=6, hidden=96, heads=4, kv_heads=1, head_dim=256, ffn=192)
SHAPES = {
    "qwen3": TinyLlm(),
    "hunyuan": TinyLlm(),
    "gemma3": GEMMA3_SHAPE,
    "translategemma": GEMMA3_SHAPE,
    "gemma3-1b": GEMMA3_1B_SHAPE,
}


@dataclass(frozen=True)
class _Kind:
    specials: list[str]
    roles: dict[str, str | None]  # bos, eos, pad → token
    template: str


_GEMMA_SPECIALS = ["<pad>", "<eos>", "<bos>", "<start_of_turn>", "<end_of_turn>", "<start_of_image>"]
_GEMMA_ROLES: dict[str, str | None] = dict(bos="<bos>", eos="<eos>", pad="<pad>")
KINDS = {
    "qwen3": _Kind(
        ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        dict(bos=None, eos="<|im_end|>", pad="<|endoftext|>"),
        QWEN3_TEMPLATE,
    ),
    "hunyuan": _Kind(
        [
            "<｜hy_begin▁of▁sentence｜>",
            "<｜hy_place▁holder▁no▁2｜>",
            "<｜hy_place▁holder▁no▁3｜>",
            "<｜hy_place▁holder▁no▁8｜>",
            "<｜hy_User｜>",
            "<｜hy_Assistant｜>",
            "<｜hy_pad｜>",
        ],
        dict(bos="<｜hy_begin▁of▁sentence｜>", eos="<｜hy_place▁holder▁no▁2｜>", pad="<｜hy_pad｜>"),
        HUNYUAN_TEMPLATE,
    ),
    "gemma3": _Kind(_GEMMA_SPECIALS, _GEMMA_ROLES, GEMMA3_TEMPLATE),
    "translategemma": _Kind(_GEMMA_SPECIALS, _GEMMA_ROLES, TRANSLATEGEMMA_TEMPLATE),
    "gemma3-1b": _Kind(_GEMMA_SPECIALS, _GEMMA_ROLES, GEMMA3_TEMPLATE),
}


def released_config(kind: str, shape: TinyLlm, ids: dict[str, int]) -> dict[str, Any]:
    """The released config.json's keys and values, sizes from `shape`, token ids the tiny tokenizer's."""
    sizes = dict(
        hidden_size=shape.hidden,
        intermediate_size=shape.ffn,
        num_hidden_layers=shape.layers,
        num_attention_heads=shape.heads,
        num_key_value_heads=shape.kv_heads,
        head_dim=shape.head_dim,
        vocab_size=ids["vocab"],
    )
    if kind == "qwen3":  # Qwen/Qwen3-1.7B
        return dict(
            architectures=["Qwen3ForCausalLM"],
            attention_bias=False,
            attention_dropout=0.0,
            bos_token_id=ids["<|endoftext|>"],
            eos_token_id=ids["<|im_end|>"],
            hidden_act="silu",
            initializer_range=0.02,
            max_position_embeddings=40960,
            max_window_layers=28,
            model_type="qwen3",
            rms_norm_eps=1e-06,
            rope_scaling=None,
            rope_theta=1000000,
            sliding_window=None,
            tie_word_embeddings=True,
            torch_dtype="bfloat16",
            use_cache=True,
            use_sliding_window=False,
            **sizes,
        )
    if kind == "hunyuan":  # a HunYuan dense config with HY-MT1.5's options (see the module's docstring)
        return dict(
            architectures=["HunYuanDenseV1ForCausalLM"],
            attention_bias=False,
            attention_dropout=0.0,
            bos_token_id=ids["<｜hy_begin▁of▁sentence｜>"],
            eos_token_id=ids["<｜hy_place▁holder▁no▁2｜>"],
            pad_token_id=ids["<｜hy_pad｜>"],
            hidden_act="silu",
            initializer_range=0.02,
            max_position_embeddings=262144,
            mlp_bias=False,
            model_type="hunyuan_v1_dense",
            rms_norm_eps=1e-05,
            rope_scaling={
                "alpha": 1000.0,
                "beta_fast": 32,
                "beta_slow": 1,
                "factor": 1.0,
                "mscale": 1.0,
                "mscale_all_dim": 1.0,
                "type": "dynamic",
            },
            rope_theta=10000.0,
            tie_word_embeddings=True,
            torch_dtype="bfloat16",
            use_cache=True,
            use_cla=False,
            use_qk_norm=True,
            use_rotary_pos_emb=True,
            **sizes,
        )
    # the tiny tokenizer's <pad>, <eos>, <bos> are 0, 1, 2, as Gemma's are: the defaults a config leaves to
    # Gemma3TextConfig are right for it
    assert (ids["<pad>"], ids["<eos>"], ids["<bos>"]) == (0, 1, 2), ids
    end_of_turn = [ids["<eos>"], ids["<end_of_turn>"]]
    if kind == "gemma3-1b":  # google/gemma-3-1b-it: a text-only Gemma3ForCausalLM, every key set
        return dict(
            architectures=["Gemma3ForCausalLM"],
            attention_bias=False,
            attention_dropout=0.0,
            attn_logit_softcapping=None,
            bos_token_id=ids["<bos>"],
            cache_implementation="hybrid",
            eos_token_id=end_of_turn,
            final_logit_softcapping=None,
            hidden_activation="gelu_pytorch_tanh",
            initializer_range=0.02,
            max_position_embeddings=32768,
            model_type="gemma3_text",
            pad_token_id=ids["<pad>"],
            query_pre_attn_scalar=shape.head_dim,
            rms_norm_eps=1e-06,
            rope_local_base_freq=10000,
            rope_scaling=None,
            rope_theta=1000000,
            sliding_window=16,
            sliding_window_pattern=6,
            torch_dtype="bfloat16",
            use_cache=True,
            **sizes,
        )
    # google/gemma-3-4b-it's config.json (TranslateGemma's too): its text_config sets these, the rest is
    # Gemma3TextConfig's defaults; vocab_size is the tiny tokenizer's (the released file leaves it at 262,208)
    defaults = (shape.heads, shape.kv_heads, shape.head_dim) == (8, 4, 256)
    assert defaults, "gemma-3-4b-it's text_config leaves the heads to Gemma3TextConfig's defaults"
    text = dict(
        hidden_size=shape.hidden,
        intermediate_size=shape.ffn,
        model_type="gemma3_text",
        num_hidden_layers=shape.layers,
        rope_scaling={"factor": 8.0, "rope_type": "linear"},
        sliding_window=16,
        vocab_size=ids["vocab"],
    )
    vocab = ids["vocab"]
    return dict(
        architectures=["Gemma3ForConditionalGeneration"],
        boi_token_index=vocab + 11,
        eoi_token_index=vocab + 12,
        eos_token_id=end_of_turn,
        image_token_index=vocab + 10,
        initializer_range=0.02,
        mm_tokens_per_image=4,
        model_type="gemma3",
        text_config=text,
        torch_dtype="bfloat16",
        vision_config=dict(
            hidden_size=32,
            image_size=28,
            intermediate_size=64,
            model_type="siglip_vision_model",
            num_attention_heads=2,
            num_hidden_layers=1,
            patch_size=14,
            vision_use_head=False,
        ),
    )


def released_generation_config(kind: str, ids: dict[str, int]) -> dict[str, Any]:
    if kind == "qwen3":  # Qwen/Qwen3-1.7B
        end, pad = ids["<|im_end|>"], ids["<|endoftext|>"]
        return dict(
            bos_token_id=pad,
            do_sample=True,
            eos_token_id=[end, pad],
            pad_token_id=pad,
            temperature=0.6,
            top_k=20,
            top_p=0.95,
        )
    if kind == "hunyuan":  # the card's sampling settings, which a pack leaves out (it decodes greedily)
        return dict(
            bos_token_id=ids["<｜hy_begin▁of▁sentence｜>"],
            do_sample=True,
            eos_token_id=ids["<｜hy_place▁holder▁no▁2｜>"],
            pad_token_id=ids["<｜hy_pad｜>"],
            repetition_penalty=1.05,
            temperature=0.7,
            top_k=20,
            top_p=0.6,
        )
    gemma = dict(bos_token_id=ids["<bos>"], cache_implementation="hybrid", pad_token_id=ids["<pad>"])
    if kind in ("gemma3", "gemma3-1b"):  # google/gemma-3-4b-it's, and gemma-3-1b-it's
        return dict(gemma, do_sample=True, eos_token_id=[ids["<eos>"], ids["<end_of_turn>"]], top_k=64, top_p=0.95)
    return dict(gemma, eos_token_id=ids["<eos>"])  # a third-party copy of TranslateGemma's: <eos> only


def train_tokenizer(kind: str, vocab: int, seed: int = 0) -> Tokenizer:
    """A byte-level BPE tokenizer on every corpus in assets/corpus, with the model's special tokens
    (and Qwen3's <think> tags as plain added tokens, as its tokenizer has them)."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab,
        special_tokens=KINDS[kind].specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    corpora = sorted(str(p) for p in (assets_dir() / "corpus").glob("*.txt"))
    tok.train(corpora, trainer)
    if kind == "qwen3":
        tok.add_tokens(
            [
                AddedToken("<think>", special=False, normalized=False),
                AddedToken("</think>", special=False, normalized=False),
            ]
        )
    return tok


def build_tiny_llm(out_dir: Path, kind: str, shape: TinyLlm | None = None, *, seed: int = 0) -> Path:
    """Save a random `kind` ("qwen3", "hunyuan", "gemma3", "translategemma", "gemma3-1b") model with its tokenizer
    into out_dir."""
    import torch
    import transformers

    shape = shape or SHAPES[kind]
    spec = KINDS[kind]
    tok = train_tokenizer(kind, shape.vocab, seed)
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=spec.roles["bos"],
        eos_token=spec.roles["eos"],
        pad_token=spec.roles["pad"],
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = spec.template
    ids: dict[str, int] = {token: tok.token_to_id(token) for token in spec.specials}
    ids["vocab"] = tok.get_vocab_size(with_added_tokens=True)
    values = {**released_config(kind, shape, ids), **shape.extra}
    config: transformers.PretrainedConfig = transformers.AutoConfig.for_model(**values)
    model_class = getattr(transformers, values["architectures"][0])
    torch.manual_seed(seed)
    model = model_class(config).eval()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Linear):
                module.weight.normal_(0.0, shape.gain / math.sqrt(module.in_features))
        model.get_input_embeddings().weight.normal_(0.0, 1.0)
        for name, param in model.named_parameters():
            if name.endswith("norm.weight") or "layernorm" in name:
                # around the norms' real values: 1 (Gemma's are offsets from 1: around 0)
                base = 0.0 if kind.startswith(("gemma3", "translategemma")) else 1.0
                param.copy_(base + 0.1 * torch.randn_like(param))
    model = model.to(torch.bfloat16)  # as released: the exporter loads it so (dtype="auto")
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    # the released file's keys only: save_pretrained writes every value, a released config.json leaves defaults out
    released = {**values, "transformers_version": transformers.__version__}
    (out_dir / "config.json").write_text(json.dumps(released, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    transformers.GenerationConfig(**released_generation_config(kind, ids)).save_pretrained(out_dir)
    fast.save_pretrained(out_dir)
    return out_dir
