"""A model's generation settings, read from generation_config.json as transformers' GenerationConfig reads them.

`generate()` takes its defaults from generation_config.json, or, where a folder has none, from the
generation settings in config.json (GenerationConfig.from_model_config). The pack records the ones the
runtime implements; a setting that would change what is generated and that the runtime does not
implement is refused by name, so a pack never decodes differently from `generate()` without saying so.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import ExportError
from .loaders import HfFolder, Loader

# generation_config fields the runtime implements; anything else set to a non-default value is refused
SUPPORTED_GENERATION_KEYS = (
    "num_beams",
    "max_length",
    "max_new_tokens",
    "min_length",
    "length_penalty",
    "early_stopping",
    "no_repeat_ngram_size",
    "repetition_penalty",
    "bad_words_ids",
    "forced_eos_token_id",
    "renormalize_logits",
)
# what a chat model's generation_config sets for sampling, which a decoder-only pack leaves out: its
# translations are greedy, exactly generate(do_sample=False) (a sampling setting may come later)
SAMPLING_KEYS = ("do_sample", "temperature", "top_k", "top_p", "min_p", "typical_p", "repetition_penalty")
# generation_config fields that choose how generate() runs, never which tokens it picks: accepted whatever
# their value (Gemma 3's and TranslateGemma's released generation_config.json set cache_implementation)
OUTPUT_NEUTRAL_GENERATION_KEYS = {
    "cache_implementation": "the class of transformers' key/value cache (hybrid, static, sliding window): same values",
    "cache_config": "options of that cache class",
    "use_cache": "whether generate() keeps a key/value cache at all: the same tokens, computed again or not",
    "return_legacy_cache": "the type of the cache object generate() returns",
    "prefill_chunk_size": "how a long prompt is fed to the model: the same logits",
    "low_memory": "beam search one beam at a time: the same result",
    "compile_config": "how torch.compile builds the forward pass",
    "disable_compile": "whether torch.compile builds it",
    "return_dict_in_generate": "what generate() returns around the tokens",
    "output_scores": "whether generate() also returns the scores",
    "output_logits": "whether generate() also returns the logits",
    "output_attentions": "whether generate() also returns the attention weights",
    "output_hidden_states": "whether generate() also returns the hidden states",
}
IDS = (
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "decoder_start_token_id",
    "transformers_version",
    "forced_bos_token_id",
    "_from_model_config",
)
DECODER_ONLY_MAX_NEW_TOKENS = 512  # a paragraph's translation; the positions left after the prompt bound it too
# GenerationConfig()'s values in transformers 4.57 (tests/test_export_torchfree.py compares them with it)
DEFAULTS: dict[str, Any] = {
    "max_length": 20,
    "max_new_tokens": None,
    "min_length": 0,
    "min_new_tokens": None,
    "early_stopping": False,
    "max_time": None,
    "stop_strings": None,
    "do_sample": False,
    "num_beams": 1,
    "use_cache": True,
    "cache_implementation": None,
    "cache_config": None,
    "return_legacy_cache": None,
    "prefill_chunk_size": None,
    "temperature": 1.0,
    "top_k": 50,
    "top_p": 1.0,
    "min_p": None,
    "typical_p": 1.0,
    "epsilon_cutoff": 0.0,
    "eta_cutoff": 0.0,
    "repetition_penalty": 1.0,
    "encoder_repetition_penalty": 1.0,
    "length_penalty": 1.0,
    "no_repeat_ngram_size": 0,
    "bad_words_ids": None,
    "renormalize_logits": False,
    "forced_bos_token_id": None,
    "forced_eos_token_id": None,
    "remove_invalid_values": False,
    "exponential_decay_length_penalty": None,
    "suppress_tokens": None,
    "begin_suppress_tokens": None,
    "sequence_bias": None,
    "token_healing": False,
    "guidance_scale": None,
    "watermarking_config": None,
    "num_return_sequences": 1,
    "output_attentions": False,
    "output_hidden_states": False,
    "output_scores": False,
    "output_logits": None,
    "return_dict_in_generate": False,
    "pad_token_id": None,
    "bos_token_id": None,
    "eos_token_id": None,
    "encoder_no_repeat_ngram_size": 0,
    "decoder_start_token_id": None,
    "is_assistant": False,
    "num_assistant_tokens": 20,
    "num_assistant_tokens_schedule": "constant",
    "assistant_confidence_threshold": 0.4,
    "prompt_lookup_num_tokens": None,
    "max_matching_ngram_size": None,
    "assistant_early_exit": None,
    "assistant_lookbehind": 10,
    "target_lookbehind": 10,
    "disable_compile": False,
    "low_memory": None,
    "penalty_alpha": None,
    "dola_layers": None,
    "diversity_penalty": 0.0,
    "num_beam_groups": 1,
    "constraints": None,
    "force_words_ids": None,
}


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise ExportError(f"{path} is not a JSON object")
    return data


def model_settings(loader: Loader, folder: HfFolder) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What GenerationConfig.from_model_config reads: the model's configuration with its class's defaults, and
    its decoder's where that is another (a multimodal checkpoint's text_config, with its class's defaults) or
    a flat encoder-decoder configuration without its encoder's keys."""
    config = vars(loader.model_config(folder))
    if isinstance(folder.config.get("text_config"), dict):
        return folder.config, config
    if not loader.decoder_only:
        return config, {k: v for k, v in config.items() if not k.startswith("encoder")}
    return config, None


def read_generation_config(
    hf_dir: Path, model_config: dict[str, Any], decoder_config: dict[str, Any] | None
) -> dict[str, Any]:
    """The settings that differ from GenerationConfig's defaults, as GenerationConfig.from_pretrained would hold
    them: generation_config.json's; else, as from_model_config takes them, the model configuration's settings
    that are not None, then those left at their defaults from the decoder's configuration, None included."""
    path = hf_dir / "generation_config.json"
    if path.is_file():
        settings = _read(path)
    else:
        settings = {k: v for k, v in model_config.items() if k in DEFAULTS and v is not None}
        for key, value in (decoder_config or {}).items():
            if key in DEFAULTS and settings.get(key, DEFAULTS[key]) == DEFAULTS[key]:
                settings[key] = value
    return {k: v for k, v in settings.items() if k not in DEFAULTS or v != DEFAULTS[k]}


def generation_defaults(hf_dir: Path, loader: Loader, folder: HfFolder) -> dict[str, Any]:
    """Generation settings exactly as `generate()` would use them.

    forced_bos_token_id is how mBART-50, M2M100 and NLLB choose the target language; the runtime
    sets it per request, so a default in the folder is only kept as the default target language.
    A decoder-only model's sampling settings are left out: its packs decode greedily.
    """
    given = {**read_generation_config(hf_dir, *model_settings(loader, folder)), **loader.task_generation(folder)}
    gen = {**DEFAULTS, **given}
    ignored = IDS + tuple(OUTPUT_NEUTRAL_GENERATION_KEYS) + (SAMPLING_KEYS if loader.decoder_only else ())
    if gen["do_sample"] and not loader.decoder_only:
        raise ExportError(
            "the model's generation config samples (do_sample=True); Fanyi decodes greedily or by beam search"
        )
    for key, value in given.items():
        if key in ignored or key in SUPPORTED_GENERATION_KEYS:
            continue
        if DEFAULTS.get(key) != value and value is not None:
            raise ExportError(f"generation setting {key}={value!r} is not supported by the Fanyi runtime")
    eos = gen["eos_token_id"]
    eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
    out: dict[str, Any] = {key: gen[key] for key in SUPPORTED_GENERATION_KEYS}
    start = gen["decoder_start_token_id"]
    if loader.decoder_only:
        # greedy, generate(do_sample=False); decoder_start only stands for the prompt in the search
        out.update(
            num_beams=1,
            repetition_penalty=None,
            max_length=None,
            max_new_tokens=gen["max_new_tokens"] or DECODER_ONLY_MAX_NEW_TOKENS,
        )
        start = gen["bos_token_id"] if gen["bos_token_id"] is not None else (eos_ids or [None])[0]
    pad = gen["pad_token_id"]
    if pad is None and loader.decoder_only and eos_ids:
        pad = eos_ids[0]  # what generate() pads with then; a decoder-only pack pads only its prompt chunks
    if not eos_ids or pad is None or start is None:
        raise ExportError("the model must define eos_token_id, pad_token_id and decoder_start_token_id")
    out["eos_token_ids"] = eos_ids
    out["pad_token_id"] = pad
    out["decoder_start_token_id"] = start
    out["forced_bos_token_id"] = gen["forced_bos_token_id"]
    return out
