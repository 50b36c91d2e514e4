"""Many-to-many encoder-decoders (mBART-50, M2M100, NLLB-200): languages named in the model's own codes.

The source language token goes into the source and the target language token is forced as the first
target token (``forced_bos_token_id``). The manifest lists the languages ("en_XX", "en", "eng_Latn"),
the vocabulary token and id of each, and where the source language token goes, so the runtime needs
no table of its own. source_lang and target_lang are then "mul".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...languages import base_language
from ..language_choice import LanguageChoice, pick_languages
from ..schema import Invalid, show
from .base import check_ids_in_vocabulary
from .seq2seq import EncoderDecoder

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView

LEARNED_POSITION_OFFSET = 2  # mBART's learned table starts with two unused rows (a fairseq legacy)


class ManyToMany(EncoderDecoder):
    many_to_many = True

    # --- the manifest -----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        super().check_manifest(manifest)
        languages = manifest["languages"]
        if languages is None or languages["tokens"] is None:
            raise Invalid("languages", f"is missing: a {self.title} pack names its languages and their tokens")
        vocab = manifest["architecture"]["vocab_size"]
        check_ids_in_vocabulary(
            [(f"languages.tokens.{code}", token_id) for code, (_token, token_id) in languages["tokens"].items()], vocab
        )
        for side in ("source", "target"):
            if unknown := [c for c in languages[side] if c not in languages["tokens"]]:
                raise Invalid(f"languages.{side}", f"lists {show(unknown[0])}, which languages.tokens lacks")
        default = manifest["default_target"]
        if default is not None and default not in languages["target"]:
            raise Invalid("default_target", f"{show(default)} is not one of languages.target")

    # --- the runtime ------------------------------------------------------------------------------
    def choose(self, pack: PackView, options: DecodeOptions | None) -> LanguageChoice:
        source, target = pick_languages(pack, options)
        tokens = pack.language_tokens
        return LanguageChoice(
            tokens[source][0], tokens[target][1], base_language(source), base_language(target), source, target
        )


class FairseqPositions(EncoderDecoder):
    """M2M100 and NLLB: fairseq's sinusoidal positions, whose table has two rows more than max_positions (row
    pad + 1 + i for the i-th non-pad token, row pad for a pad token)."""

    def extra_position_rows(self) -> int:
        return LEARNED_POSITION_OFFSET
