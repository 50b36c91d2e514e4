"""The model families Fanyi runs, one module each, found through one registry (base.py).

Importing this package registers every family; the order decides which family claims a folder
whose architecture several share (M2M100 before NLLB).
"""

from __future__ import annotations

from . import gemma3, hunyuan, m2m100, marian, mbart50, nllb, qwen3  # noqa: F401 - they register themselves
from .base import (
    FAMILIES,
    OPTIONAL_TOKENIZER_FILES,
    ExportRefused,
    Family,
    HfFolder,
    check_ids_in_vocabulary,
    family_for_folder,
    family_named,
    family_of,
    supported,
)

__all__ = [
    "FAMILIES",
    "OPTIONAL_TOKENIZER_FILES",
    "ExportRefused",
    "Family",
    "HfFolder",
    "check_ids_in_vocabulary",
    "family_for_folder",
    "family_named",
    "family_of",
    "supported",
]
