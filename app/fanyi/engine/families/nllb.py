"""NLLB-200 (facebook/nllb-200-distilled-600M): M2M100's architecture with tokenizer.json (or the slow
tokenizer's vocabulary, as mBART-50) and languages as eng_Latn, zho_Hans …; legacy_behaviour puts the source
language token after </s>."""

from __future__ import annotations

from .base import register
from .many_to_many import FairseqPositions
from .mbart50 import JsonOrSentencePiece


@register
class Nllb(FairseqPositions, JsonOrSentencePiece):
    name = "nllb"
    title = "NLLB-200"
