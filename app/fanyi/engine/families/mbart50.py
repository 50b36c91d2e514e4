"""mBART-50 (facebook/mbart-large-50-many-to-many-mmt): pre-norm with a LayerNorm on the embeddings,
learned positions offset by two rows, tokenizer.json (or, exported from a folder without one, the SentencePiece
model and the slow tokenizer's vocabulary); languages as en_XX, zh_CN …"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..json_tokenizer import JsonTokenizer
from ..schema import Invalid
from ..tokenizer import M2M100Tokenizer
from .base import clean_up_spaces, register
from .m2m100 import SENTENCEPIECE_FILES, open_sentencepiece_tokenizer
from .many_to_many import LEARNED_POSITION_OFFSET, ManyToMany

if TYPE_CHECKING:
    from ..pack_view import PackView


def open_json_tokenizer(pack: PackView) -> JsonTokenizer:
    """tokenizer.json with the pack's language tokens (mBART-50, NLLB)."""
    languages = dict(pack.language_tokens.values())  # token → id
    position = pack.manifest["languages"]["source_token_position"]
    clean = clean_up_spaces(pack)
    return pack.load(
        "tokenizer.json",
        lambda path: JsonTokenizer(path, languages, source_token_position=position, clean_up_tokenization_spaces=clean),
    )


class JsonOrSentencePiece(ManyToMany):
    """mBART-50 and NLLB: the fast tokenizer's tokenizer.json, or — for a model folder that had none — the
    SentencePiece model and the slow tokenizer's vocabulary and added tokens, run as M2M100's."""

    tokenizer_files = ("tokenizer.json",)
    other_tokenizers: ClassVar[dict[str, tuple[str, ...]]] = {"sentencepiece": SENTENCEPIECE_FILES}

    def check_manifest(self, manifest: dict[str, Any]) -> None:
        super().check_manifest(manifest)
        if manifest["tokenizer"] == "sentencepiece" and manifest["added_tokens"] is None:
            raise Invalid("added_tokens", f"is missing: a {self.title} pack tokenized by SentencePiece lists them")

    def open_tokenizer(self, pack: PackView) -> JsonTokenizer | M2M100Tokenizer:
        if pack.manifest["tokenizer"] == "sentencepiece":
            return open_sentencepiece_tokenizer(pack)
        return open_json_tokenizer(pack)


@register
class MBart50(JsonOrSentencePiece):
    name = "mbart50"
    title = "mBART-50"

    def extra_position_rows(self) -> int:
        return LEARNED_POSITION_OFFSET
