"""M2M100 checkpoints (facebook/m2m100_418M): the M2M100 tokenizer's folders (a fairseq vocab.json beside one
SentencePiece model); its languages "en" are the tokens "__en__", numbered after vocab.json."""

from __future__ import annotations

from typing import Any

from .base import HfFolder, register
from .many_to_many import FairseqPositionsLoader, ManyToManyLoader

ARCHITECTURE = "M2M100ForConditionalGeneration"


@register
class M2M100Loader(FairseqPositionsLoader, ManyToManyLoader):
    family_name = "m2m100"
    architectures = (ARCHITECTURE,)
    model_types = ("m2m_100",)
    model_class = ARCHITECTURE
    hf_tokenizer_class = "M2M100Tokenizer"

    def claims(self, folder: HfFolder) -> bool:
        tokenizer = folder.tokenizer_class
        return tokenizer.startswith("M2M100") or (not tokenizer.startswith("Nllb") and folder.has("vocab.json"))

    def language_codes(self, hf_tokenizer: Any) -> tuple[list[str], list[str]]:
        codes = list(hf_tokenizer.lang_code_to_id)
        return codes, [hf_tokenizer.lang_code_to_token[c] for c in codes]
