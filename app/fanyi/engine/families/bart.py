"""BART summarizers (facebook/bart-large-cnn, sshleifer/distilbart-cnn-12-6): post-norm with a LayerNorm on the
embeddings, learned positions offset by two rows, byte-level BPE read from tokenizer.json; an English text in,
its English summary out, never a translation.

The source is <s> text </s> with the model's text prefix before the text (bart-large-cnn's " ", as the
summarization pipeline adds it); </s> starts the decoder and <s> is forced as its first token
(forced_bos_token_id), </s> as its last at the length bound (forced_eos_token_id). Beams, length penalty,
the 56-to-142-token bounds and the ban on repeated 3-grams are the pack's generation settings, read from the
model's own files (generation_config.json or config.json, then task_specific_params.summarization).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tokenizers import Tokenizer

from ...languages import base_language
from ..byte_level import ByteLevelTokenizer
from ..chat_tokenizer import check_streamable
from ..language_choice import LanguageChoice
from ..schema import Invalid
from .base import check_ids_in_vocabulary, clean_up_spaces, register
from .many_to_many import LEARNED_POSITION_OFFSET
from .seq2seq import EncoderDecoder

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView

LANGUAGE = "en"  # what the released summarizers read and write


@register
class Bart(EncoderDecoder):
    name = "bart"
    title = "BART"
    tokenizer_files = ("tokenizer.json",)
    translates = False
    batch_size = 4  # sources of up to 1,024 tokens, each with beams of a 142-token summary

    def extra_position_rows(self) -> int:
        return LEARNED_POSITION_OFFSET

    def summarizes(self, manifest: dict[str, Any]) -> bool:
        return True

    def check_tokenizer_json(self, content: str) -> None:
        check_streamable(Tokenizer.from_str(content))  # bytes: streamed as the LLMs' are

    def check_manifest(self, manifest: dict[str, Any]) -> None:
        super().check_manifest(manifest)
        if manifest["special_ids"]["bos"] is None:
            raise Invalid("special_ids.bos", f"is missing: a {self.title} pack starts each source with it")
        forced = manifest["generation"]["forced_bos_token_id"]
        check_ids_in_vocabulary(
            [("special_ids.bos", manifest["special_ids"]["bos"])]
            + ([("generation.forced_bos_token_id", forced)] if forced is not None else []),
            manifest["architecture"]["vocab_size"],
        )

    def open_tokenizer(self, pack: PackView) -> ByteLevelTokenizer:
        ids = pack.special_ids
        unk = ids["unk"] if ids["unk"] is not None else ids["pad"]
        clean = clean_up_spaces(pack)
        return pack.load(
            "tokenizer.json",
            lambda path: ByteLevelTokenizer(
                path,
                bos_id=ids["bos"],
                eos_id=ids["eos"],
                unk_id=unk,
                model_vocab=pack.architecture["vocab_size"],
                prefix=pack.manifest["source_prefix"] or "",
                clean_up_tokenization_spaces=clean,
            ),
        )

    def choose(self, pack: PackView, options: DecodeOptions | None) -> LanguageChoice:
        asked = (("reads", options.source if options else None), ("writes", options.target if options else None))
        for side, wanted in asked:
            if wanted is not None and base_language(wanted) != LANGUAGE:
                raise ValueError(f"the model {pack.name} {side} English only, not {wanted!r}")
        forced = pack.manifest["generation"]["forced_bos_token_id"]
        return LanguageChoice(None, forced, LANGUAGE, LANGUAGE)

    def stream_decoder(self, tokenizer: Any) -> Any:
        return tokenizer.stream_decoder()
