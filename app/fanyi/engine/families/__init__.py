"""The model families Fanyi runs, one module each, found through one registry by name (base.py).

Importing this package registers every family. How a Hugging Face checkpoint becomes a pack of a family is
fanyi.export.loaders', not the engine's.
"""

from __future__ import annotations

from . import bart, gemma3, hunyuan, m2m100, marian, mbart50, nllb, qwen3  # noqa: F401 - they register themselves
from .base import (
    FAMILIES,
    OPTIONAL_TOKENIZER_FILES,
    Family,
    check_ids_in_vocabulary,
    family_named,
    family_of,
)

__all__ = [
    "FAMILIES",
    "OPTIONAL_TOKENIZER_FILES",
    "Family",
    "check_ids_in_vocabulary",
    "family_named",
    "family_of",
]
