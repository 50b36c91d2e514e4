"""mBART-50 (facebook/mbart-large-50-many-to-many-mmt): pre-norm with a LayerNorm on the embeddings,
learned positions offset by two rows, tokenizer.json; languages as en_XX, zh_CN …"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..json_tokenizer import JsonTokenizer
from .base import clean_up_spaces, register
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


@register
class MBart50(ManyToMany):
    name = "mbart50"
    title = "mBART-50"
    tokenizer_files = ("tokenizer.json",)

    def extra_position_rows(self) -> int:
        return LEARNED_POSITION_OFFSET

    def open_tokenizer(self, pack: PackView) -> JsonTokenizer:
        return open_json_tokenizer(pack)
