"""Tiny random decoder-only models of the real architectures, for the tests (build time: torch, transformers).

A Hugging Face folder like the real ones: config.json of HunYuanDenseV1ForCausalLM (HY-MT1.5),
Qwen3ForCausalLM or Gemma3ForCausalLM with a few layers of width 64, random weights scaled so that
the output depends on the prompt, a byte-level BPE tokenizer.json trained on assets/corpus with the
model's own special tokens, and a chat template of the same structure as the model's (written here:
the real templates cannot be downloaded on the machines the tests run on).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

from ..paths import assets_dir

# Templates of the same structure as the released models' (their special tokens, where the generation
# prompt goes, Qwen3's empty think block when thinking is off, TranslateGemma's structured message).
QWEN3_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}"
    "{%- endif %}"
)
HUNYUAN_TEMPLATE = (
    "{{ bos_token }}"
    "{%- for message in messages %}"
    "{%- if message['role'] == 'system' %}{{ message['content'] }}<｜hy_place▁holder▁no▁3｜>"
    "{%- elif message['role'] == 'user' %}<｜hy_User｜>{{ message['content'] }}"
    "{%- elif message['role'] == 'assistant' %}<｜hy_Assistant｜>{{ message['content'] }}{{ eos_token }}"
    "{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}<｜hy_Assistant｜>{%- endif %}"
)
TRANSLATEGEMMA_TEMPLATE = (
    "{{ bos_token }}"
    "{%- for message in messages %}<start_of_turn>user\n"
    "{%- set item = message['content'][0] %}"
    "You are a professional {{ item['source_lang_code'] }} to {{ item['target_lang_code'] }} translator. "
    "Produce only the translation.\n\n\n{{ item['text'] | trim }}<end_of_turn>\n"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}<start_of_turn>model\n{%- endif %}"
)


@dataclass(frozen=True)
class TinyLlm:
    layers: int = 2
    hidden: int = 64
    heads: int = 4
    kv_heads: int = 2
    head_dim: int = 16
    ffn: int = 128
    positions: int = 512
    vocab: int = 900  # BPE merges learned on the corpus, before the special tokens
    gain: float = 2.0  # linear weights ~ N(0, gain² / fan_in): outputs depend on the prompt
    extra: dict[str, Any] = field(default_factory=dict)  # config.json fields of the architecture


# architecture → (special tokens, which is bos/eos/pad, extra end-of-turn tokens, template)
_TOKENS: dict[str, tuple[list[str], dict[str, str | None], list[str], str]] = {
    "qwen3": (
        ["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        dict(bos=None, eos="<|im_end|>", pad="<|endoftext|>"),
        ["<|endoftext|>"],
        QWEN3_TEMPLATE,
    ),
    "hunyuan": (
        [
            "<｜hy_begin▁of▁sentence｜>",
            "<｜hy_place▁holder▁no▁2｜>",
            "<｜hy_place▁holder▁no▁3｜>",
            "<｜hy_User｜>",
            "<｜hy_Assistant｜>",
            "<｜hy_pad｜>",
        ],
        dict(bos="<｜hy_begin▁of▁sentence｜>", eos="<｜hy_place▁holder▁no▁2｜>", pad="<｜hy_pad｜>"),
        [],
        HUNYUAN_TEMPLATE,
    ),
    "gemma3": (
        ["<pad>", "<eos>", "<bos>", "<start_of_turn>", "<end_of_turn>"],
        dict(bos="<bos>", eos="<eos>", pad="<pad>"),
        ["<end_of_turn>"],
        TRANSLATEGEMMA_TEMPLATE,
    ),
}
_TOKENS["translategemma"] = _TOKENS["gemma3"]  # TranslateGemma: Gemma 3's multimodal checkpoint, its tokens
ARCHITECTURES = tuple(_TOKENS)


def train_tokenizer(kind: str, vocab: int, seed: int = 0) -> Tokenizer:
    """A byte-level BPE tokenizer on every corpus in assets/corpus, with the model's special tokens
    (and Qwen3's <think> tags as plain added tokens, as its tokenizer has them)."""
    specials, _roles, _ends, _template = _TOKENS[kind]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab,
        special_tokens=specials,
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


def build_tiny_llm(out_dir: Path, kind: str, shape: TinyLlm = TinyLlm(), *, seed: int = 0) -> Path:
    """Save a random `kind` ("qwen3", "hunyuan", "gemma3", "translategemma") model with its tokenizer into out_dir."""
    import torch
    import transformers

    specials, roles, ends, template = _TOKENS[kind]
    tok = train_tokenizer(kind, shape.vocab, seed)
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok,
        bos_token=roles["bos"],
        eos_token=roles["eos"],
        pad_token=roles["pad"],
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = template
    ids = {key: (None if value is None else tok.token_to_id(value)) for key, value in roles.items()}
    eos_ids = [ids["eos"]] + [tok.token_to_id(t) for t in ends]
    vocab = tok.get_vocab_size(with_added_tokens=True)
    common = dict(
        vocab_size=vocab,
        hidden_size=shape.hidden,
        intermediate_size=shape.ffn,
        num_hidden_layers=shape.layers,
        num_attention_heads=shape.heads,
        num_key_value_heads=shape.kv_heads,
        head_dim=shape.head_dim,
        max_position_embeddings=shape.positions,
        bos_token_id=ids["bos"],
        eos_token_id=eos_ids,
        pad_token_id=ids["pad"],
        rms_norm_eps=1e-6,
        **shape.extra,
    )
    config: transformers.PretrainedConfig
    model_class: Any  # the family's transformers class, for its config
    if kind == "qwen3":
        config = transformers.Qwen3Config(tie_word_embeddings=True, rope_theta=1_000_000.0, **common)
        model_class = transformers.Qwen3ForCausalLM
    elif kind == "hunyuan":
        config = transformers.HunYuanDenseV1Config(
            tie_word_embeddings=True,
            rope_theta=10_000.0,
            rope_scaling={"type": "dynamic", "alpha": 1000.0, "factor": 1.0},
            **common,
        )
        model_class = transformers.HunYuanDenseV1ForCausalLM
    else:
        config = transformers.Gemma3TextConfig(
            tie_word_embeddings=True,
            rope_theta=1_000_000.0,
            rope_local_base_freq=10_000.0,
            rope_scaling={"rope_type": "linear", "factor": 8.0},
            sliding_window=6,
            layer_types=["sliding_attention"] * (shape.layers - 1) + ["full_attention"],
            query_pre_attn_scalar=shape.head_dim,
            hidden_activation="gelu_pytorch_tanh",
            **common,
        )
        model_class = transformers.Gemma3ForCausalLM
        if kind == "translategemma":  # the language model inside a (tiny) vision-language checkpoint
            vision = transformers.SiglipVisionConfig(
                hidden_size=32,
                intermediate_size=64,
                num_hidden_layers=1,
                num_attention_heads=2,
                image_size=28,
                patch_size=14,
            )
            config = transformers.Gemma3Config(
                text_config=config,
                vision_config=vision,
                mm_tokens_per_image=4,
                image_token_index=vocab + 10,
                boi_token_index=vocab + 11,
                eoi_token_index=vocab + 12,
                bos_token_id=ids["bos"],
                eos_token_id=eos_ids,
                pad_token_id=ids["pad"],
            )
            model_class = transformers.Gemma3ForConditionalGeneration
    config.architectures = [model_class.__name__]
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
                base = 0.0 if kind in ("gemma3", "translategemma") else 1.0
                param.copy_(base + 0.1 * torch.randn_like(param))
    generation = transformers.GenerationConfig(
        bos_token_id=ids["bos"], eos_token_id=eos_ids, pad_token_id=ids["pad"], max_new_tokens=40
    )
    if kind == "hunyuan":  # the card's sampling settings, which a pack leaves out (it decodes greedily)
        generation.update(do_sample=True, top_k=20, top_p=0.6, temperature=0.7, repetition_penalty=1.05)
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out_dir)
    generation.save_pretrained(out_dir)
    fast.save_pretrained(out_dir)
    return out_dir
