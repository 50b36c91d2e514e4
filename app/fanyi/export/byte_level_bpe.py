"""tokenizer.json of a byte-level BPE folder that ships only vocab.json and merges.txt (BART's, RoBERTa's).

Made as transformers makes it when AutoTokenizer finds no tokenizer.json (convert_slow_tokenizer's
RobertaConverter from BartTokenizer): the BPE model of the two files with no subword prefix or suffix, a
ByteLevel pre-tokenizer that adds a prefix space only where tokenizer_config.json says so, the ByteLevel
decoder, RobertaProcessing with <s> and </s>, and the special tokens as BartTokenizer adds them (<mask>
taking the space before it). tests/test_bart.py compares its ids with BartTokenizer's and BartTokenizerFast's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tokenizers import AddedToken, Tokenizer, decoders, pre_tokenizers, processors
from tokenizers.models import BPE

from .errors import ExportError

SLOW_FILES = ("vocab.json", "merges.txt")
# BartTokenizer's special tokens (its __init__'s defaults), in the order it adds them
SPECIAL = {"bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "cls_token": "<s>", "unk_token": "<unk>"}
PAD, MASK = "<pad>", "<mask>"


def _token(config: dict[str, Any], key: str, default: str) -> str:
    value = config.get(key, default)
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) else default


def _merges(path: Path) -> list[tuple[str, str]]:
    """merges.txt's pairs, as BartTokenizer reads them: its first line (#version) skipped, one pair a line."""
    lines = path.read_text(encoding="utf-8").split("\n")[1:-1]
    pairs = [tuple(line.split()) for line in lines]
    if bad := next((line for line, pair in zip(lines, pairs) if len(pair) != 2), None):
        raise ExportError(f"{path}: {bad!r} is not a merge of two pieces")
    return [(a, b) for a, b in pairs]


def tokenizer_json(folder: Path, tokenizer_config: dict[str, Any]) -> bytes:
    try:
        vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        merges = _merges(folder / "merges.txt")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{folder}: the BART tokenizer's vocabulary cannot be read: {exc}") from None
    if not isinstance(vocab, dict) or not all(isinstance(i, int) for i in vocab.values()):
        raise ExportError(f"{folder / 'vocab.json'} is not a vocabulary (token → id)")
    prefix_space = bool(tokenizer_config.get("add_prefix_space", False))
    tok = Tokenizer(
        BPE(
            vocab=vocab,
            merges=merges,
            dropout=None,
            continuing_subword_prefix="",
            end_of_word_suffix="",
            fuse_unk=False,
        )
    )
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=prefix_space)
    tok.decoder = decoders.ByteLevel()
    names = {key: _token(tokenizer_config, key, default) for key, default in SPECIAL.items()}
    for key in ("sep_token", "cls_token"):
        if names[key] not in vocab:
            raise ExportError(f"{folder / 'vocab.json'} has no {names[key]!r} ({key})")
    tok.post_processor = processors.RobertaProcessing(
        sep=(names["sep_token"], vocab[names["sep_token"]]),
        cls=(names["cls_token"], vocab[names["cls_token"]]),
        add_prefix_space=prefix_space,
        trim_offsets=True,
    )
    specials = [*dict.fromkeys([*names.values(), _token(tokenizer_config, "pad_token", PAD)])]
    tok.add_special_tokens([AddedToken(t, special=True, normalized=True) for t in specials])
    tok.add_special_tokens(
        [AddedToken(_token(tokenizer_config, "mask_token", MASK), lstrip=True, special=True, normalized=True)]
    )
    made: str = tok.to_str(pretty=True)
    return made.encode("utf-8")
