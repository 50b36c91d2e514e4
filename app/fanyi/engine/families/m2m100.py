"""M2M100 (facebook/m2m100_418M): pre-norm, fairseq positions, one SentencePiece model and a fairseq
dictionary (vocab.json); a language "en" is the token "__en__", numbered after vocab.json."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..tokenizer import M2M100Tokenizer, load_spm, read_vocab
from .base import HfFolder, clean_up_spaces, register
from .many_to_many import FairseqPositions, ManyToMany

if TYPE_CHECKING:
    from ..pack_view import PackView

ARCHITECTURE = "M2M100ForConditionalGeneration"


@register
class M2M100(FairseqPositions, ManyToMany):
    name = "m2m100"
    title = "M2M100"
    architectures = (ARCHITECTURE,)
    model_types = ("m2m_100",)
    model_class = ARCHITECTURE
    hf_tokenizer_class = "M2M100Tokenizer"
    tokenizer_files = ("sentencepiece.bpe.model", "vocab.json")

    def claims(self, folder: HfFolder) -> bool:
        tokenizer = folder.tokenizer_class
        return tokenizer.startswith("M2M100") or (not tokenizer.startswith("Nllb") and folder.has("vocab.json"))

    def language_codes(self, hf_tokenizer: Any) -> tuple[list[str], list[str]]:
        codes = list(hf_tokenizer.lang_code_to_id)
        return codes, [hf_tokenizer.lang_code_to_token[c] for c in codes]

    def open_tokenizer(self, pack: PackView) -> M2M100Tokenizer:
        section = pack.manifest["languages"]
        languages = dict(pack.language_tokens.values())  # token → id
        vocab_size = pack.architecture["vocab_size"]
        return M2M100Tokenizer(
            pack.load("sentencepiece.bpe.model", load_spm),
            pack.load("vocab.json", lambda path: read_vocab(path, vocab_size, specials=())),
            languages,
            languages_are_special=section["tokens_are_special"],
            clean_up_tokenization_spaces=clean_up_spaces(pack),
            source_token_position=section["source_token_position"],
        )
