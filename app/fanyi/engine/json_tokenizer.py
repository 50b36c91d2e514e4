"""tokenizer.json tokenization (mBART-50, NLLB-200) with the `tokenizers` library, no transformers.

Equal to transformers' MBart50TokenizerFast and NllbTokenizerFast, which run the same file through
the same library: a source is the text's pieces (no post-processor) with the source language token
before them and </s> after them — or, for NLLB's legacy_behaviour, </s> then the language token.
Decoding is `decode(ids, skip_special_tokens=True)` and the optional English clean-up.

For streaming, decode(ids) is rebuilt from each id's own text (piece_text): these files decode with
a Metaspace decoder, which turns "▁" into spaces and drops one space at the start of the first
token that is not skipped; nothing else depends on context.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer as HFTokenizer

from .tokenizer import SPIECE_UNDERLINE, clean_up_tokenization


class TokenizerFileError(ValueError):
    """A tokenizer.json this runtime cannot reproduce exactly."""


def _metaspace_drops_first_space(decoder: dict[str, Any] | None) -> bool:
    """Whether the decoder is a Metaspace one (which one), else TokenizerFileError."""
    if not decoder or decoder.get("type") != "Metaspace" or decoder.get("replacement") != SPIECE_UNDERLINE:
        raise TokenizerFileError(
            f"tokenizer.json decoder {decoder and decoder.get('type')!r} is not supported "
            "(mBART-50 and NLLB use Metaspace)"
        )
    if "prepend_scheme" in decoder:
        return bool(decoder["prepend_scheme"] != "never")
    return bool(decoder.get("add_prefix_space", True))  # files written by tokenizers < 0.14


def check_metaspace(tok: HFTokenizer) -> None:
    """TokenizerFileError unless the tokenizer's decoder is one JsonTokenizer streams (Metaspace)."""
    decoder = tok.decoder
    _metaspace_drops_first_space(json.loads(decoder.__getstate__()) if decoder else None)


class JsonTokenizer:
    strips = False  # decode() keeps outer spaces but one leading one (see detok.StreamDecoder)

    def __init__(
        self,
        path: Path,
        languages: dict[str, int],
        *,
        eos_token: str = "</s>",
        source_token_position: str = "prefix",
        clean_up_tokenization_spaces: bool = False,
    ) -> None:
        self._tok = HFTokenizer.from_file(str(path))
        decoder = self._tok.decoder
        self.drops_first_space = _metaspace_drops_first_space(json.loads(decoder.__getstate__()) if decoder else None)
        # transformers resets these on every call; a file may carry settings of its own
        self._tok.no_truncation()
        self._tok.no_padding()
        self._languages = languages
        self._suffix = source_token_position == "suffix"
        # token_to_id, not a vocabulary dict: 250k entries cost a tenth of a second to build
        self.eos_id = self._tok.token_to_id(eos_token)
        self.vocab_size = self._tok.get_vocab_size(with_added_tokens=True)
        self.clean_up_tokenization_spaces = clean_up_tokenization_spaces
        self._special_ids = {i for i, t in self._tok.get_added_tokens_decoder().items() if t.special}
        for token, i in {eos_token: self.eos_id, **languages}.items():
            if i is None or self._tok.token_to_id(token) != i:
                raise TokenizerFileError(f"tokenizer.json has no token {token!r}" + (f" with id {i}" if i else ""))

    def encode(self, text: str, language_token: str | None = None) -> list[int]:
        ids: list[int] = self._tok.encode(text, add_special_tokens=False).ids + [self.eos_id]
        if language_token is None:
            return ids
        lang = self._languages[language_token]
        return ids + [lang] if self._suffix else [lang, *ids]

    def decode(self, ids: Sequence[int]) -> str:
        # ids beyond the vocabulary are skipped by the library; negative ones it cannot take at all
        text = self._tok.decode([int(i) for i in ids if i >= 0], skip_special_tokens=True)
        return clean_up_tokenization(text) if self.clean_up_tokenization_spaces else text

    def piece_text(self, i: int) -> str:
        """What id i adds to decode() where it is not the first token shown ("" for skipped ids)."""
        if i in self._special_ids or not 0 <= i < self.vocab_size:
            return ""
        token = self._tok.id_to_token(i)
        return "" if token is None else token.replace(SPIECE_UNDERLINE, " ")

    def id_to_piece(self, i: int) -> str | None:
        piece: str | None = self._tok.id_to_token(i)
        return piece
