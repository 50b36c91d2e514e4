"""Which files of a model repository a conversion reads: configuration, tokenizer, licence, safetensors weights.

Downloaders (the Hugging Face Hub, its mirrors, ModelScope) ask this before fetching anything, so that
only what the converter needs is downloaded. Weights are read from safetensors only: a repository that
has nothing but pickled PyTorch weights (pytorch_model.bin) is refused here, before any download, because
unpickling a file from the internet can run any code.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from .errors import ExportError

CONFIG_FILES = ("config.json", "generation_config.json")
# every family's tokenizer files (fanyi.engine.families), and what tokenizer_config.json leaves to others
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "added_tokens.json",
    "chat_template.jinja",
    "chat_template.json",
    "source.spm",
    "target.spm",
    "vocab.json",
    "target_vocab.json",
    "sentencepiece.bpe.model",
)
# a byte-level BPE's merges (BART's), read where the folder has no tokenizer.json (export/byte_level_bpe.py)
SLOW_BPE_FILES = ("merges.txt",)
# the model's licence, which a pack built from it carries along (packaging/release/notices.py)
LICENSE_FILES = ("LICENSE", "LICENSE.txt", "License.txt", "LICENSE.md", "NOTICE", "NOTICE.txt")
SAFETENSORS = "model.safetensors"
SHARD_INDEX = "model.safetensors.index.json"
PICKLED = ("pytorch_model.bin", "pytorch_model.bin.index.json", "model.pt", "model.ckpt")


def pickled_only(present: Collection[str]) -> bool:
    """Whether a repository's weights are pickled PyTorch files only, with no safetensors beside them."""
    return SAFETENSORS not in present and SHARD_INDEX not in present and any(name in present for name in PICKLED)


def needed_files(present: Collection[str], read: Callable[[str], bytes]) -> list[str]:
    """The files of a repository (its top-level names in `present`) that a conversion reads, in download order:
    configuration and tokenizer first, then the weights. `read(name)` gives a small file's bytes (the shard
    index), which the caller downloads for it. ExportError when the repository cannot be converted."""
    if "config.json" not in present:
        raise ExportError("the repository has no config.json: it is not a Hugging Face model")
    slow = SLOW_BPE_FILES if "tokenizer.json" not in present else ()
    small = [f for f in CONFIG_FILES + TOKENIZER_FILES + slow + LICENSE_FILES if f in present]
    if SAFETENSORS in present:
        return [*small, SAFETENSORS]
    if SHARD_INDEX in present:
        return [*small, SHARD_INDEX, *shards(read(SHARD_INDEX), present)]
    if pickled_only(present):
        raise ExportError(
            "the repository has only pickled PyTorch weights (pytorch_model.bin), which Fanyi never opens "
            "(unpickling a downloaded file can run any code); choose a revision with model.safetensors"
        )
    raise ExportError(f"the repository has no model weights ({SAFETENSORS} or {SHARD_INDEX})")


def shards(index: bytes, present: Collection[str] | None = None) -> list[str]:
    """The shard files a model.safetensors.index.json names, each once, sorted."""
    try:
        data: Any = json.loads(index)
        names = sorted(set(data["weight_map"].values()))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ExportError(f"{SHARD_INDEX} is not a shard index (no weight_map of tensor → file)") from None
    for name in names:
        if not isinstance(name, str) or "/" in name or "\\" in name or not name.endswith(".safetensors"):
            raise ExportError(f"{SHARD_INDEX} names {name!r}, which is not a safetensors file beside it")
        if present is not None and name not in present:
            raise ExportError(f"{SHARD_INDEX} names {name!r}, which the repository does not have")
    return names
