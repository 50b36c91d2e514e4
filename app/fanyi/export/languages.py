"""The languages of a many-to-many model, read from its Hugging Face tokenizer (build time: transformers).

The manifest keeps the model's own codes (en_XX, en, eng_Latn), the vocabulary token and id of
each, and where the source language token goes, so the runtime needs no table of its own.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.families import M2M100, Family
from .errors import ExportError

# the code asked for when the user names none: the app is an English→Chinese translator first
PREFERRED_TARGETS = ("zho_Hans", "zh_CN", "zh")
MULTIPLE = "mul"  # ISO 639-2 "multiple languages": a many-to-many pack's source_lang and target_lang


def language_manifest(family: Family, tokenizer_dir: Path, forced_bos_id: int | None) -> dict:
    """The manifest's language fields for a family whose target language is a forced first token."""
    from transformers import AutoTokenizer

    try:
        tok = AutoTokenizer.from_pretrained(tokenizer_dir)
    except (OSError, ValueError) as exc:
        raise ExportError(f"{tokenizer_dir}: the {family.title} tokenizer cannot be read ({exc})") from None
    if family is M2M100:  # a code "en" is the token "__en__", numbered after vocab.json
        codes = list(tok.lang_code_to_id)
        tokens = [tok.lang_code_to_token[c] for c in codes]
    else:  # mBART-50 and NLLB: the codes are the tokens, the tokenizer's additional special tokens
        codes = tokens = list(tok.additional_special_tokens)
    if not tokens:
        raise ExportError(f"{tokenizer_dir}: the {family.title} tokenizer has no language tokens")
    ids = [int(tok.convert_tokens_to_ids(t)) for t in tokens]
    if len(set(ids)) != len(ids) or tok.unk_token_id in ids:
        raise ExportError(f"{tokenizer_dir}: the {family.title} tokenizer's language tokens are not distinct tokens")
    by_id = dict(zip(ids, codes))
    if forced_bos_id is not None and forced_bos_id not in by_id:
        raise ExportError(f"forced_bos_token_id {forced_bos_id} is not a language token of the tokenizer")
    default = by_id.get(forced_bos_id) if forced_bos_id is not None else \
        next((c for c in PREFERRED_TARGETS if c in codes), codes[0])
    return {
        "source_lang": MULTIPLE,
        "target_lang": MULTIPLE,
        "languages": {
            "source": codes,
            "target": codes,
            "tokens": {code: [token, i] for code, token, i in zip(codes, tokens, ids)},
            # NLLB's legacy_behaviour puts the code after </s>; everything else starts with it
            "source_token_position": "suffix" if getattr(tok, "legacy_behaviour", False) else "prefix",
            # whether a language token written in a text is that token, and decoding skips it (an
            # M2M100 folder saved by transformers 4.57 does not list them as special tokens)
            "tokens_are_special": all(t in tok.all_special_tokens for t in tokens),
        },
        "target_tokens": {},
        "default_target": default,
        "unk": tok.unk_token_id,
    }
