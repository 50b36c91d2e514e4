"""MarianMT (OPUS-MT): post-norm, sinusoidal positions, Marian's two SentencePiece models and vocab.json.

One source language; a multi-target pack (opus-mt-en-zh: cmn_Hans, cmn_Hant, yue …) picks its target
by a ``>>id<<`` token at the start of the source.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..language_choice import LanguageChoice, offered
from ..schema import Invalid, show
from ..tokenizer import Tokenizer, load_spm, read_vocab
from .base import clean_up_spaces, register
from .seq2seq import EncoderDecoder

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView

LANG_TOKEN = re.compile(r"^>>(.+)<<$")


@register
class Marian(EncoderDecoder):
    name = "marian"
    title = "MarianMT"
    tokenizer_files = ("source.spm", "target.spm", "vocab.json")

    # --- the manifest -----------------------------------------------------------------------------
    def check_manifest(self, manifest: dict[str, Any]) -> None:
        super().check_manifest(manifest)
        for key, token in manifest["target_tokens"].items():
            if token != f">>{key}<<":
                raise Invalid(f"target_tokens.{key}", f"must be '>>{key}<<', not {show(token)}")
        default = manifest["default_target"]
        if default is not None and default not in manifest["target_tokens"]:
            raise Invalid("default_target", f"{show(default)} is not one of target_tokens")

    # --- the runtime ------------------------------------------------------------------------------
    def open_tokenizer(self, pack: PackView) -> Tokenizer:
        vocab_size = pack.architecture["vocab_size"]
        return Tokenizer(
            pack.load("source.spm", load_spm),
            pack.load("target.spm", load_spm),
            pack.load("vocab.json", lambda path: read_vocab(path, vocab_size)),
            clean_up_tokenization_spaces=clean_up_spaces(pack),
        )

    def choose(self, pack: PackView, options: DecodeOptions | None) -> LanguageChoice:
        source = options.source if options else None
        if source is not None and source != pack.source_lang:
            raise ValueError(f"the model {pack.name} translates from {pack.source_lang!r} only, not {source!r}")
        wanted = (options.target if options else None) or pack.default_target
        token = None
        if wanted is not None:
            tokens = pack.target_tokens
            offered(pack, "target", wanted, sorted(tokens))
            token = tokens[wanted]
        return LanguageChoice(token, None, pack.source_lang, pack.target_lang)
