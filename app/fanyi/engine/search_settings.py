"""Turns a pack's generation defaults and a caller's DecodeOptions into one resolved SearchSettings."""

from __future__ import annotations

from .options import DecodeOptions
from .pack import ModelPack
from .processors import build_processors
from .search import SearchSettings


def resolve(pack: ModelPack, options: DecodeOptions | None, forced_bos_id: int | None = None) -> SearchSettings:
    """`forced_bos_id`: the target language token a many-to-many model must start with."""
    o = options or DecodeOptions()
    gen = pack.generation
    ids = pack.special_ids

    def pick(option, key, fallback):
        if option is not None:
            return option
        value = gen.get(key)
        return fallback if value is None else value

    # generate(): max_new_tokens wins over max_length and counts tokens after the decoder start
    if o.max_new_tokens is not None:
        max_length = o.max_new_tokens + 1
    elif o.max_length is not None:
        max_length = o.max_length
    elif gen.get("max_new_tokens") is not None:
        max_length = gen["max_new_tokens"] + 1
    else:
        max_length = gen.get("max_length") or 20
    # the decoder's position table bounds how many steps can run at all
    max_length = min(max_length, int(pack.architecture["max_positions"]) + 1)
    eos_ids = tuple(ids.get("eos_all") or [ids["eos"]])
    rules = build_processors(
        repetition_penalty=pick(o.repetition_penalty, "repetition_penalty", 1.0),
        no_repeat_ngram_size=pick(o.no_repeat_ngram_size, "no_repeat_ngram_size", 0),
        bad_words_ids=pack.manifest.get("bad_words_ids") or [],
        min_length=pick(o.min_length, "min_length", 0),
        forced_eos_token_id=gen.get("forced_eos_token_id"),
        max_length=max_length,
        renormalize=bool(gen.get("renormalize_logits")),
        eos_ids=eos_ids,
        forced_bos_token_id=forced_bos_id,
    )
    return SearchSettings(
        num_beams=pick(o.beams, "num_beams", 1),
        max_length=max_length,
        length_penalty=float(pick(o.length_penalty, "length_penalty", 1.0)),
        early_stopping=pick(o.early_stopping, "early_stopping", False),
        eos_ids=eos_ids,
        pad_id=int(ids["pad"]),
        decoder_start_id=int(ids["decoder_start"]),
        rules=tuple(rules),
        forced_bos_id=forced_bos_id,
    )
