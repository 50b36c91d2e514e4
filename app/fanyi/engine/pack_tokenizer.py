"""The tokenizer of a pack, by its family: Marian's, M2M100's (SentencePiece + vocab.json) or tokenizer.json.

Each file is loaded through ModelPack.load, so that a file that passes its checksum and still cannot
be read is named in the error.
"""

from __future__ import annotations

import json
from pathlib import Path

from .json_tokenizer import JsonTokenizer
from .pack import ModelPack
from .tokenizer import M2M100Tokenizer, Tokenizer, load_spm, read_vocab

TOKENIZER_CONFIG = "tokenizer_config.json"


def _clean_up_spaces(config: Path) -> bool:
    """decode()'s clean-up of spaces, as the model's tokenizer_config.json sets it (default off)."""
    settings = json.loads(config.read_text(encoding="utf-8"))
    if not isinstance(settings, dict):
        raise ValueError("not a JSON object")
    return bool(settings.get("clean_up_tokenization_spaces", False))


def open_tokenizer(pack: ModelPack) -> Tokenizer | M2M100Tokenizer | JsonTokenizer:
    clean = TOKENIZER_CONFIG in pack.manifest["files"] and pack.load(TOKENIZER_CONFIG, _clean_up_spaces)
    family = pack.family
    vocab_size = pack.architecture["vocab_size"]
    if family.tokenizer == "marian":
        return Tokenizer(pack.load("source.spm", load_spm), pack.load("target.spm", load_spm),
                         pack.load("vocab.json", lambda path: read_vocab(path, vocab_size)),
                         clean_up_tokenization_spaces=clean)
    section = pack.manifest["languages"]
    languages = dict(pack.language_tokens.values())  # token → id
    position = section["source_token_position"]
    if family.tokenizer == "sentencepiece":
        return M2M100Tokenizer(pack.load("sentencepiece.bpe.model", load_spm),
                               pack.load("vocab.json", lambda path: read_vocab(path, vocab_size, specials=())),
                               languages, languages_are_special=section["tokens_are_special"],
                               clean_up_tokenization_spaces=clean, source_token_position=position)
    return pack.load("tokenizer.json", lambda path: JsonTokenizer(path, languages, source_token_position=position,
                                                                   clean_up_tokenization_spaces=clean))
