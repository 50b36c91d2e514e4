"""MarianMT (OPUS-MT): post-norm, sinusoidal positions, Marian's two SentencePiece models and vocab.json.

One source language; a multi-target pack (opus-mt-en-zh: cmn_Hans, cmn_Hant, yue …) picks its target
by a ``>>id<<`` token at the start of the source.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ...languages import ALIASES
from ..language_choice import LanguageChoice, offered
from ..schema import Invalid, show
from ..tokenizer import Tokenizer, load_spm, read_vocab
from .base import ExportRefused, HfFolder, clean_up_spaces, register
from .seq2seq import EncoderDecoder

if TYPE_CHECKING:
    from ..options import DecodeOptions
    from ..pack_view import PackView

LANG_TOKEN = re.compile(r"^>>(.+)<<$")


@register
class Marian(EncoderDecoder):
    name = "marian"
    title = "MarianMT"
    architectures = ("MarianMTModel",)
    model_types = ("marian",)
    model_class = "MarianMTModel"
    hf_tokenizer_class = "MarianTokenizer"
    tokenizer_files = ("source.spm", "target.spm", "vocab.json")
    pre_norm = False
    config_defaults: ClassVar[dict[str, Any]] = {  # MarianConfig's
        "activation_function": "gelu",
        "scale_embedding": False,
        "share_encoder_decoder_embeddings": True,
        "tie_word_embeddings": True,
        "max_position_embeddings": 1024,
        "eos_token_id": 0,
        "pad_token_id": 58100,
        "decoder_start_token_id": 58100,
        "forced_eos_token_id": 0,
    }

    # --- export -----------------------------------------------------------------------------------
    def check_folder(self, folder: HfFolder) -> None:
        for required in self.tokenizer_files:
            if not folder.has(required):
                raise ExportRefused(f"{folder.path / required} is missing: not a complete MarianMT model folder")
        if folder.has("target_vocab.json"):
            raise ExportRefused(
                f"{folder.path} uses separate source and target vocabularies, which Fanyi does not support"
            )

    def shares_embeddings(self, config: Any) -> bool:
        return bool(config.share_encoder_decoder_embeddings)

    def manifest_languages(
        self, folder: HfFolder, hf_tokenizer: Callable[[], Any], generation: dict[str, Any]
    ) -> dict[str, Any]:
        if generation["forced_bos_token_id"] is not None:
            raise ExportRefused("forced_bos_token_id is not supported by the Fanyi runtime for MarianMT models")
        vocab = json.loads((folder.path / "vocab.json").read_text(encoding="utf-8"))
        name_match = re.search(r"opus-mt-([a-z]+)-([a-z]+)", folder.path.name)

        def norm(code: str | None, fallback: str | None) -> str:
            code = (code or fallback or "und").lower()
            return ALIASES.get(code, code)

        cfg = folder.tokenizer_config
        target_lang = norm(cfg.get("target_lang"), name_match and name_match.group(2))
        targets = {m.group(1): tok for tok in vocab if (m := LANG_TOKEN.match(tok))}
        preferred = {"zh": "cmn_Hans"}.get(target_lang)
        default = None if not targets else preferred if preferred in targets else sorted(targets)[0]
        return {
            "source_lang": norm(cfg.get("source_lang"), name_match and name_match.group(1)),
            "target_lang": target_lang,
            "target_tokens": targets,
            "default_target": default,
            "unk": vocab.get("<unk>"),
        }

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
