"""M2M100 (facebook/m2m100_418M): pre-norm, fairseq positions, one SentencePiece model and a fairseq
dictionary (vocab.json); a language "en" is the token "__en__", numbered after vocab.json."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tokenizer import M2M100Tokenizer, load_spm, read_vocab
from .base import clean_up_spaces, register
from .many_to_many import FairseqPositions, ManyToMany

if TYPE_CHECKING:
    from ..pack_view import PackView

SENTENCEPIECE_FILES = ("sentencepiece.bpe.model", "vocab.json")


def open_sentencepiece_tokenizer(pack: PackView) -> M2M100Tokenizer:
    """sentencepiece.bpe.model and vocab.json with the pack's language tokens: M2M100's, and mBART-50's and
    NLLB's exported without tokenizer.json (their added tokens in the manifest)."""
    section = pack.manifest["languages"]
    languages = dict(pack.language_tokens.values())  # token → id
    added = pack.manifest["added_tokens"]
    vocab_size = pack.architecture["vocab_size"]
    return M2M100Tokenizer(
        pack.load("sentencepiece.bpe.model", load_spm),
        pack.load("vocab.json", lambda path: read_vocab(path, vocab_size, specials=tuple(added or ()))),
        languages,
        languages_are_special=section["tokens_are_special"],
        clean_up_tokenization_spaces=clean_up_spaces(pack),
        source_token_position=section["source_token_position"],
        added=added,
    )


@register
class M2M100(FairseqPositions, ManyToMany):
    name = "m2m100"
    title = "M2M100"
    tokenizer_files = SENTENCEPIECE_FILES

    def open_tokenizer(self, pack: PackView) -> M2M100Tokenizer:
        return open_sentencepiece_tokenizer(pack)
