"""mBART-50 (facebook/mbart-large-50-many-to-many-mmt): pre-norm with a LayerNorm on the embeddings,
learned positions offset by two rows, tokenizer.json; languages as en_XX, zh_CN …"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..json_tokenizer import JsonTokenizer
from .base import HfFolder, clean_up_spaces, register
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
    architectures = ("MBartForConditionalGeneration",)
    model_types = ("mbart",)
    model_class = "MBartForConditionalGeneration"
    hf_tokenizer_class = "MBart50Tokenizer"
    tokenizer_files = ("tokenizer.json",)
    layernorm_embedding = True
    positions = "learned"

    def claims(self, folder: HfFolder) -> bool:
        tokenizer = folder.tokenizer_class
        return tokenizer.startswith("MBart50") or (not tokenizer and folder.has("tokenizer.json"))

    def refusal(self, folder: HfFolder) -> str:
        return (
            f"{folder.path}: {folder.architecture} with the {folder.tokenizer_class or 'unknown'} tokenizer is "
            "not supported; of mBART models Fanyi exports the mBART-50 ones (MBart50Tokenizer)"
        )

    def position_offset(self, config: Any) -> int:
        return LEARNED_POSITION_OFFSET

    def extra_position_rows(self) -> int:
        return LEARNED_POSITION_OFFSET

    def open_tokenizer(self, pack: PackView) -> JsonTokenizer:
        return open_json_tokenizer(pack)
