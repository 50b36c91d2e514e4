"""NLLB-200 (facebook/nllb-200-distilled-600M): M2M100's architecture with tokenizer.json and languages
as eng_Latn, zho_Hans …; legacy_behaviour puts the source language token after </s>."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..json_tokenizer import JsonTokenizer
from .base import register
from .many_to_many import FairseqPositions, ManyToMany
from .mbart50 import open_json_tokenizer

if TYPE_CHECKING:
    from ..pack_view import PackView


@register
class Nllb(FairseqPositions, ManyToMany):
    name = "nllb"
    title = "NLLB-200"
    tokenizer_files = ("tokenizer.json",)

    def open_tokenizer(self, pack: PackView) -> JsonTokenizer:
        return open_json_tokenizer(pack)
