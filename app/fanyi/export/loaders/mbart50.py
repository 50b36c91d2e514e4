"""mBART-50 checkpoints (facebook/mbart-large-50-many-to-many-mmt): pre-norm with a LayerNorm on the embeddings,
learned positions stored two rows after the table's start; of mBART models only the mBART-50 tokenizer's."""

from __future__ import annotations

from typing import Any

from ...engine.families.many_to_many import LEARNED_POSITION_OFFSET
from .base import HfFolder, register
from .many_to_many import ManyToManyLoader


@register
class MBart50Loader(ManyToManyLoader):
    family_name = "mbart50"
    architectures = ("MBartForConditionalGeneration",)
    model_types = ("mbart",)
    model_class = "MBartForConditionalGeneration"
    hf_tokenizer_class = "MBart50Tokenizer"
    layernorm_embedding = True
    positions = "learned"

    def claims(self, folder: HfFolder) -> bool:
        tokenizer = folder.tokenizer_class
        return tokenizer.startswith("MBart50") or (not tokenizer and folder.has("tokenizer.json"))

    def refusal(self, folder: HfFolder) -> str:
        return (
            f"{folder.path}: {folder.architecture} with the {folder.tokenizer_class or 'unknown'} tokenizer is "
            "not supported; of mBART models Fanyi exports the mBART-50 ones (MBart50Tokenizer)"
        )

    def position_offset(self, config: Any) -> int:
        return LEARNED_POSITION_OFFSET
