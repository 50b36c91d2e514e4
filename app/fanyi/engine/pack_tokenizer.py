"""The tokenizer of a pack, by its family: Marian's, M2M100's (SentencePiece + vocab.json) or tokenizer.json."""

from __future__ import annotations

import json

from .json_tokenizer import JsonTokenizer
from .pack import ModelPack
from .tokenizer import M2M100Tokenizer, Tokenizer


def _tokenizer_config(pack: ModelPack) -> dict:
    if "tokenizer_config.json" not in pack.manifest["files"]:
        return {}
    try:
        config = json.loads(pack.file("tokenizer_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return config if isinstance(config, dict) else {}


def open_tokenizer(pack: ModelPack) -> Tokenizer | M2M100Tokenizer | JsonTokenizer:
    # decode's clean-up of spaces, as the model's tokenizer_config.json sets it (default off)
    clean = bool(_tokenizer_config(pack).get("clean_up_tokenization_spaces", False))
    family = pack.family
    if family.tokenizer == "marian":
        return Tokenizer.from_files(pack.file("source.spm"), pack.file("target.spm"), pack.file("vocab.json"),
                                    clean_up_tokenization_spaces=clean)
    section = pack.manifest.get("languages") or {}
    languages = dict(pack.language_tokens.values())  # token → id
    position = section.get("source_token_position", "prefix")
    if family.tokenizer == "sentencepiece":
        return M2M100Tokenizer.from_files(pack.file("sentencepiece.bpe.model"), pack.file("vocab.json"), languages,
                                          languages_are_special=bool(section.get("tokens_are_special", True)),
                                          clean_up_tokenization_spaces=clean, source_token_position=position)
    return JsonTokenizer(pack.file("tokenizer.json"), languages, source_token_position=position,
                         clean_up_tokenization_spaces=clean)
