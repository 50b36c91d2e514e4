"""NLLB-200 checkpoints (facebook/nllb-200-distilled-600M): M2M100's architecture with NLLB's tokenizer."""

from __future__ import annotations

from .base import HfFolder, register
from .m2m100 import ARCHITECTURE
from .many_to_many import FairseqPositionsLoader, ManyToManyLoader


@register
class NllbLoader(FairseqPositionsLoader, ManyToManyLoader):
    family_name = "nllb"
    architectures = (ARCHITECTURE,)
    model_types = ("m2m_100",)
    model_class = ARCHITECTURE
    hf_tokenizer_class = "NllbTokenizer"

    def claims(self, folder: HfFolder) -> bool:
        return (
            folder.tokenizer_class.startswith("Nllb")
            or folder.has("tokenizer.json")
            or folder.has("sentencepiece.bpe.model")
        )

    def refusal(self, folder: HfFolder) -> str:
        return f"{folder.path}: {folder.architecture} has no tokenizer Fanyi knows (M2M100Tokenizer or NllbTokenizer)"
