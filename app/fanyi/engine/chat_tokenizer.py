"""tokenizer.json tokenization of decoder-only packs, with their prompts and streaming by bytes.

A prompt is encoded as transformers' ``apply_chat_template(tokenize=True)`` encodes it: the rendered
text through the same tokenizer.json with ``add_special_tokens=False`` (the template writes the
model's begin-of-text token itself). A translation is ``decode(ids, skip_special_tokens=True)``,
then what the pack's strip rule removes (prompt.StripRule), then surrounding whitespace.

Byte-level tokenizers (Qwen3, HunYuan) and byte-fallback ones (Gemma) split a character across
tokens, so a stream cannot be built from each id's own text. IncrementalDecoder decodes the ids so
far and shows what can no longer change: the text up to an unfinished character (U+FFFD at the end
of a partial decode), less what the strip rule may still remove and trailing whitespace.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from tokenizers import Tokenizer as HFTokenizer

from .prompt import Prompts, Request, StripRule
from .tokenizer import clean_up_tokenization

REPLACEMENT = "\ufffd"
# tokenizer.json decoders whose output only grows as ids are appended (so a stream is exact)
APPEND_ONLY_DECODERS = {"ByteLevel", "ByteFallback", "Fuse", "Replace"}


class ChatTokenizerError(ValueError):
    """A tokenizer.json this runtime cannot stream exactly."""


def _decoder_kinds(decoder: dict[str, Any] | None) -> list[str]:
    if not decoder:
        return []
    if decoder.get("type") == "Sequence":
        return [kind for d in decoder.get("decoders", []) for kind in _decoder_kinds(d)]
    return [str(decoder.get("type"))]


def check_chat_tokenizer(path: Path) -> HFTokenizer:
    """The tokenizer of a tokenizer.json whose decoding can be streamed exactly; ChatTokenizerError if not."""
    return check_streamable(HFTokenizer.from_file(str(path)))


def check_streamable(tok: HFTokenizer) -> HFTokenizer:
    """`tok`, if its decoding can be streamed exactly by IncrementalDecoder; ChatTokenizerError if not."""
    decoder = tok.decoder
    kinds = _decoder_kinds(json.loads(decoder.__getstate__()) if decoder else None)
    if unknown := [k for k in kinds if k not in APPEND_ONLY_DECODERS]:
        raise ChatTokenizerError(
            f"tokenizer.json decoder {unknown[0]!r} is not supported "
            f"(supported: {', '.join(sorted(APPEND_ONLY_DECODERS))})"
        )
    return tok


class ChatTokenizer:
    strips = True  # a translation has no surrounding whitespace

    def __init__(
        self,
        path: Path,
        prompts: Prompts,
        strip: StripRule,
        eos_ids: Sequence[int],
        *,
        clean_up_tokenization_spaces: bool = False,
    ) -> None:
        self._tok = check_chat_tokenizer(path)
        self._tok.no_truncation()
        self._tok.no_padding()
        self.prompts = prompts
        self.strip = strip
        self.eos_ids = tuple(eos_ids)
        self.eos_id = self.eos_ids[0]
        self.vocab_size = self._tok.get_vocab_size(with_added_tokens=True)
        self.clean_up_tokenization_spaces = clean_up_tokenization_spaces
        self._prefixes: dict[Request, list[int]] = {}

    # --- encoding ---------------------------------------------------------------------------------
    def encode_text(self, text: str) -> list[int]:
        """A text's own ids, no special tokens added (to count and to check a translation against)."""
        ids: list[int] = self._tok.encode(text, add_special_tokens=False).ids
        return ids

    def encode(self, text: str, request: Request) -> list[int]:
        """The whole prompt for translating `text`."""
        return self.encode_text(self.prompts.render(text, request))

    def prefix_ids(self, request: Request) -> list[int]:
        """Ids of the prompt before the source text (the runner computes their cache once)."""
        if request not in self._prefixes:
            self._prefixes[request] = self.encode_text(self.prompts.fixed_prefix(request))
        return self._prefixes[request]

    # --- decoding ---------------------------------------------------------------------------------
    def raw_decode(self, ids: Sequence[int]) -> str:
        # ids beyond the vocabulary are skipped by the library; negative ones it cannot take at all
        text = self._tok.decode([int(i) for i in ids if i >= 0], skip_special_tokens=True)
        return clean_up_tokenization(text) if self.clean_up_tokenization_spaces else text

    def decode(self, ids: Sequence[int]) -> str:
        """The translation the ids make: decoded, the strip rule applied, surrounding whitespace removed."""
        return self.strip.apply(self.raw_decode(ids)).strip()

    def id_to_piece(self, i: int) -> str | None:
        piece: str | None = self._tok.id_to_token(i)
        return piece

    def stream_decoder(self) -> IncrementalDecoder:
        return IncrementalDecoder(self)


class Decodes(Protocol):
    """What an IncrementalDecoder reads of its tokenizer (a ChatTokenizer, byte_level.ByteLevelTokenizer)."""

    @property
    def strip(self) -> StripRule: ...
    def raw_decode(self, ids: Sequence[int]) -> str: ...
    def decode(self, ids: Sequence[int]) -> str: ...


class IncrementalDecoder:
    """push() the ids as they are decided; everything returned, finish() included, concatenates to
    exactly tokenizer.decode(all ids)."""

    def __init__(self, tokenizer: Decodes) -> None:
        self._tokenizer = tokenizer
        self._ids: list[int] = []
        self._shown = ""

    def _visible(self, final: bool) -> str:
        text = self._tokenizer.raw_decode(self._ids)
        if final:
            return self._tokenizer.decode(self._ids)
        text = text.rstrip(REPLACEMENT)  # a character whose bytes have not all come
        held = self._tokenizer.strip.held(text)
        return text[held:].rstrip()

    def push(self, ids: Sequence[int]) -> str:
        self._ids.extend(int(i) for i in ids)
        visible = self._visible(final=False)
        if not visible.startswith(self._shown):  # cannot happen with an append-only decoder
            return ""
        delta, self._shown = visible[len(self._shown) :], visible
        return delta

    def finish(self) -> str:
        """The rest of the text; the decoder is then ready for a new sequence."""
        final = self._visible(final=True)
        rest = final[len(self._shown) :] if final.startswith(self._shown) else ""
        self._ids, self._shown = [], ""
        return rest
